import { cleanText } from "../sandbox/cleanText.ts";
import { extractModule, fencedBlocks, fencedSpans, type SchemaInvalidReason } from "./parse.ts";

/** A composite round's control message (docs/SCORING.md "Composite tasks"): submit (optionally with an answer) or an error report. */
export type ControlMessage =
  | { kind: "submit"; answer: Record<string, unknown> }
  | { kind: "error"; type: string; message: string };

/** What one composite reply asks for: a module to execute, a control message of vocabulary `C`, or both. */
export type ControlReply<C> = {
  code?: string | undefined;
  control?: C | undefined;
  /** Set when the reply cannot be acted on (it is a failed round). */
  invalid?: { reason: SchemaInvalidReason; message: string } | undefined;
};

/** What one composite response asks for under our protocol. */
export type RoundRequest = ControlReply<ControlMessage>;

/**
 * A protocol's control vocabulary: which JSON texts of a reply claim to be control messages (a key of
 * the vocabulary), and what a parsed one means (the message, or why it is not one: the round is
 * `invalid_control_json`).
 */
export type ControlVocabulary<C> = {
  looksLikeControl: (json: string) => boolean;
  toControl: (value: unknown) => C | string;
};

/** Attempts from a `{` that never closes before giving up: bounds the work on garbage to linear time. */
const MAX_UNCLOSED_ATTEMPTS = 32;

/**
 * Balanced `{…}` spans of text outside fenced blocks (a bare control JSON written inline). Fenced
 * blocks, and everything after a fence that is never closed (a truncated block), are not prose.
 */
export function bareObjects(text: string): string[] {
  const { blocks, unclosedAt } = fencedSpans(text);
  let outside = "";
  let from = 0;
  for (const block of blocks) {
    outside += `${text.slice(from, block.start)} `;
    from = block.end;
  }
  outside += text.slice(from, unclosedAt ?? text.length);
  const spans: string[] = [];
  let unclosed = 0;
  for (let i = outside.indexOf("{"); i >= 0; i = outside.indexOf("{", i + 1)) {
    let depth = 0;
    let inString = false;
    let closed = false;
    for (let j = i; j < outside.length; j++) {
      const c = outside[j];
      if (inString) {
        if (c === "\\") j++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        spans.push(outside.slice(i, j + 1));
        i = j;
        closed = true;
        break;
      }
    }
    if (!closed && ++unclosed >= MAX_UNCLOSED_ATTEMPTS) break;
  }
  return spans;
}

const looksLikeControl = (text: string) => /"(submit|error)"\s*:/.test(text);

function toControl(value: unknown): ControlMessage | string {
  if (!value || typeof value !== "object" || Array.isArray(value))
    return "the control JSON must be an object";
  const v = value as Record<string, unknown>;
  if (v.error !== undefined) {
    const e = v.error as Record<string, unknown> | string;
    // The model's own words, printed with the instance: cleaned (docs/SECURITY.md, "Model text").
    if (typeof e === "string") return { kind: "error", type: "error", message: cleanText(e) };
    if (!e || typeof e !== "object") return '"error" must be an object {"type", "message"}';
    return {
      kind: "error",
      type: cleanText(String(e.type ?? "error"), 200),
      message: cleanText(String(e.message ?? "")),
    };
  }
  if (v.submit === true) {
    if (
      v.answer !== undefined &&
      (typeof v.answer !== "object" || v.answer === null || Array.isArray(v.answer))
    )
      return '"answer" must be an object';
    return { kind: "submit", answer: (v.answer ?? {}) as Record<string, unknown> };
  }
  return 'a control JSON needs "submit": true or an "error" object';
}

/**
 * Reads one composite reply under a control vocabulary (docs/ARCHITECTURE.md "The attempt's
 * contract"; ours: {@link CONTROL_VOCABULARY}, the paper protocol's: src/protocol/paperControl.ts):
 * at most one module (a TypeScript block defining `executeSkill`) and at most one control JSON (a ```json block, an unlabelled block that is
 * not a module, or a bare object, that the vocabulary claims). Never throws: two modules, unparseable
 * or unknown control JSON, two control JSONs, or neither module nor control JSON is `invalid`.
 */
export function readControlReply<C>(text: string, vocabulary: ControlVocabulary<C>): ControlReply<C> {
  const request: ControlReply<C> = {};
  const module = extractModule(text);
  if (module.ok) request.code = module.code;
  else if (module.reason === "multiple_code_blocks")
    return { invalid: { reason: module.reason, message: module.message } };

  const candidates = [
    ...fencedBlocks(text)
      .filter((b) => b.lang === "json" || (b.lang === "" && !/\bexecuteSkill\b/.test(b.code)))
      .map((b) => b.code),
    ...bareObjects(text),
  ].filter(vocabulary.looksLikeControl);
  const controls: C[] = [];
  for (const candidate of candidates) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate);
    } catch (error) {
      return {
        ...request,
        invalid: {
          reason: "invalid_control_json",
          message: `unparseable control JSON: ${cleanText((error as Error).message)}`,
        },
      };
    }
    const control = vocabulary.toControl(parsed);
    if (typeof control === "string")
      return { ...request, invalid: { reason: "invalid_control_json", message: control } };
    controls.push(control);
  }
  if (controls.length > 1)
    return {
      ...request,
      invalid: { reason: "invalid_control_json", message: "more than one control JSON in one response" },
    };
  request.control = controls[0];
  if (!request.code && !request.control)
    return {
      invalid: {
        reason: module.ok ? "no_code_block" : module.reason,
        message: module.ok ? "" : `${module.message}, and no control JSON`,
      },
    };
  return request;
}

/** Our protocol's control vocabulary (docs/SCORING.md "Composite tasks"): `{"submit": true, "answer"?}` or `{"error": …}`. */
export const CONTROL_VOCABULARY: ControlVocabulary<ControlMessage> = { looksLikeControl, toControl };

/**
 * Reads one composite response (docs/SCORING.md "Composite tasks"): at most one module
 * (a TypeScript block defining `executeSkill`) and at most one control JSON (a ```json block, or a
 * bare object with "submit" or "error"). Never throws: an unusable response is `invalid`.
 */
export function parseRound(text: string): RoundRequest {
  return readControlReply(text, CONTROL_VOCABULARY);
}
