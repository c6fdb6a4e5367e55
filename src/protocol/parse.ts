/**
 * Reading a model's response (SPEC.md §4, paper App. B.3). A malformed response is a result with a
 * reason code, never an exception.
 */

/** `schema_invalid` reason codes (SPEC.md §4), each its own. */
export type SchemaInvalidReason =
  | "no_code_block"
  | "multiple_code_blocks"
  | "no_export"
  | "signature_mismatch"
  | "not_transaction_like"
  | "missing_to"
  | "not_serialisable"
  | "not_answer_object"
  | "invalid_control_json";

const CODE_LANGS = new Set(["", "ts", "typescript", "js", "javascript", "tsx", "mjs"]);
const FENCE = /(^|\n)[ \t]*(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*\n([\s\S]*?)\n[ \t]*\2[ \t]*(?=\n|$)/g;

export type CodeBlock = { lang: string; code: string };

/** Every fenced block of a response, in order, with its language tag (lower-cased, may be ""). */
export function fencedBlocks(text: string): CodeBlock[] {
  return [...text.matchAll(FENCE)].map((m) => ({ lang: m[3]!.toLowerCase(), code: m[4]! }));
}

/**
 * The one module of an atomic response: the TypeScript/JavaScript block that defines `executeSkill`.
 * Blocks tagged with another language (json, python, bash …) are not code.
 */
export function extractModule(
  text: string,
): { ok: true; code: string } | { ok: false; reason: SchemaInvalidReason; message: string } {
  const blocks = fencedBlocks(text).filter((b) => CODE_LANGS.has(b.lang));
  if (blocks.length === 0)
    return { ok: false, reason: "no_code_block", message: "the response has no TypeScript code block" };
  const withEntry = blocks.filter((b) => /\bexecuteSkill\b/.test(b.code));
  if (withEntry.length > 1)
    return {
      ok: false,
      reason: "multiple_code_blocks",
      message: `${withEntry.length} code blocks define executeSkill; expected one`,
    };
  if (withEntry.length === 0)
    return { ok: false, reason: "no_export", message: "no code block exports executeSkill" };
  return { ok: true, code: withEntry[0]!.code };
}
