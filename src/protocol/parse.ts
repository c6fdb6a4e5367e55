/**
 * Reading a model's response (docs/SECURITY.md "Malformed model output and task specs", paper App. B.3). A malformed response is a result with a
 * reason code, never an exception.
 */

/** `schema_invalid` reason codes (docs/SECURITY.md "Malformed model output and task specs"), each its own. */
export type SchemaInvalidReason =
  | "no_code_block"
  | "multiple_code_blocks"
  | "no_export"
  | "signature_mismatch"
  | "not_transaction_like"
  | "missing_to"
  | "not_serialisable"
  | "not_answer_object"
  | "invalid_refusal"
  | "invalid_control_json";

const CODE_LANGS = new Set(["", "ts", "typescript", "js", "javascript", "tsx", "mjs"]);
const OPENER = /^[ \t]*(`{3,}|~{3,})[ \t]*([\w+-]*)/;
const CLOSER = /^[ \t]*(`{3,}|~{3,})[ \t\r]*$/;

export type CodeBlock = { lang: string; code: string };

/** A fenced block with its place in the response: `start` is its opening line, `end` is past its closing line. */
export type FencedSpan = CodeBlock & { start: number; end: number };

/**
 * The fenced blocks of a response and, when an opening fence after the last block is never closed
 * (a response cut short), where it sits. A block opens with a line of 3+ backticks or tildes and an optional language
 * tag, and closes at the next line holding exactly the same fence. One pass over the lines: a
 * response of many unclosed fences (a model stuck repeating "```") costs linear time, not quadratic.
 */
export function fencedSpans(text: string): { blocks: FencedSpan[]; unclosedAt: number | undefined } {
  const lines = text.split("\n");
  const starts: number[] = [];
  const closers = new Map<string, number[]>();
  for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i++) {
    starts.push(at);
    const close = CLOSER.exec(lines[i]!);
    if (close) {
      const list = closers.get(close[1]!) ?? [];
      list.push(i);
      closers.set(close[1]!, list);
    }
  }
  // Openers are visited in line order, so each fence's next-closer pointer only moves forward.
  const next = new Map<string, number>();
  const blocks: FencedSpan[] = [];
  let unclosedAt: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const open = OPENER.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const list = closers.get(fence) ?? [];
    let k = next.get(fence) ?? 0;
    while (k < list.length && list[k]! <= i) k++;
    next.set(fence, k);
    if (k === list.length) {
      unclosedAt ??= starts[i]!;
      continue;
    }
    const j = list[k]!;
    unclosedAt = undefined;
    blocks.push({
      lang: open[2]!.toLowerCase(),
      code: lines.slice(i + 1, j).join("\n"),
      start: starts[i]!,
      end: starts[j]! + lines[j]!.length,
    });
    i = j;
  }
  return { blocks, unclosedAt };
}

/** Every fenced block of a response, in order, with its language tag (lower-cased, may be ""). */
export function fencedBlocks(text: string): CodeBlock[] {
  return fencedSpans(text).blocks.map(({ lang, code }) => ({ lang, code }));
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
