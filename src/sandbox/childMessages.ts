import { cleanText } from "./cleanText.ts";
import {
  type ExecuteModuleErrorCode,
  type ExecuteModuleResult,
  type ExecuteModuleTimings,
  fail,
} from "./executeResult.ts";
import { reviveValue } from "./reviveValue.ts";

// The child's side of this protocol is childRunner.mjs: one JSON line per message on fd 3 (child to
// harness), one per message on stdin (harness to child). Everything the child sends is untrusted:
// the model's code can write fd 3 too (docs/SECURITY.md, "Result channel").

/** A line the child sent on its result channel, parsed (not yet checked beyond being an object). */
export type ChildMessage =
  | { type: "ready" }
  | { type: "result"; ok: true; value?: unknown }
  | { type: "result"; ok: false; code: unknown; message: unknown }
  | { type: "rpc"; [field: string]: unknown };

/** Room on the result channel for the envelope and an error message, beyond the value itself. */
export const ENVELOPE_BYTES = 64 * 1024;
/** Longest failure message kept from the child (the runner cuts at 8,192 characters itself). */
export const MAX_CHILD_MESSAGE_CHARS = 10_000;
/** Deepest nesting of arrays and objects accepted in a returned value (a transaction has 2, an answer a few). */
const MAX_VALUE_DEPTH = 64;

/** Every code a child may report; anything else on the result channel is `output_invalid`. */
const CHILD_ERROR_CODES: ReadonlySet<string> = new Set<ExecuteModuleErrorCode>([
  "runtime_error",
  "timeout",
  "permission_denied",
  "output_invalid",
  "output_too_large",
  "no_export",
  "signature_mismatch",
]);

/**
 * Splits the result channel's byte stream into lines, handing each to `onLine`. The line being
 * assembled is checked while it streams: past `maxBytes()` it is dropped and `onOverflow` called, so
 * a huge reply never sits in the harness's memory.
 * @returns the handler of each chunk read from the channel.
 */
export function lineSplitter(
  maxBytes: () => number,
  onLine: (line: Buffer) => void,
  onOverflow: () => void,
): (chunk: Buffer) => void {
  let channel: Buffer[] = [];
  let channelBytes = 0;
  return (chunk) => {
    let rest = chunk;
    for (let newline = rest.indexOf(10); newline !== -1; newline = rest.indexOf(10)) {
      channel.push(rest.subarray(0, newline));
      const line = Buffer.concat(channel);
      channel = [];
      channelBytes = 0;
      rest = rest.subarray(newline + 1);
      onLine(line);
    }
    channel.push(rest);
    channelBytes += rest.length;
    if (channelBytes > maxBytes()) {
      channel = [];
      channelBytes = 0;
      onOverflow();
    }
  };
}

/** One line of the result channel as a message, `$bigint`s revived; `"malformed"` when it is not a JSON object. */
export function parseChildLine(line: Buffer): ChildMessage | "malformed" {
  try {
    const message = JSON.parse(line.toString("utf8"), reviveValue) as ChildMessage;
    if (message === null || typeof message !== "object") throw new Error("not a message");
    return message;
  } catch {
    // Only the model's own code could write a malformed line to fd 3.
    return "malformed";
  }
}

/**
 * True when `value` nests deeper than `limit`, checked without recursion: `JSON.parse` accepts
 * 200,000 levels in 400 KB, and the harness's own recursive code (JSON.stringify of results,
 * validators) would then throw RangeError far from here.
 */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object" || ArrayBuffer.isView(current)) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The execution's result from a `{type:"result"}` message, or from a malformed line. */
export function resultOf(
  message: Extract<ChildMessage, { type: "result" }> | "malformed",
  timings: ExecuteModuleTimings,
): ExecuteModuleResult {
  if (message === "malformed")
    return fail("output_invalid", "The sandbox result channel received malformed data.", timings);
  if (message.ok === true) {
    if (nestsDeeperThan(message.value, MAX_VALUE_DEPTH))
      return fail("output_invalid", `The return value nests deeper than ${MAX_VALUE_DEPTH} levels.`, timings);
    return { ok: true, value: message.value, timings };
  }
  // Untrusted: the model's code can write this channel too. Own, known codes only.
  const { code, message: text } = message as { code: unknown; message: unknown };
  if (typeof code !== "string" || !CHILD_ERROR_CODES.has(code) || typeof text !== "string")
    return fail("output_invalid", "The sandbox result channel received an unknown failure.", timings);
  // The one place the child's text is accepted: clean from here to every sink.
  return fail(code as ExecuteModuleErrorCode, cleanText(text, MAX_CHILD_MESSAGE_CHARS), timings);
}
