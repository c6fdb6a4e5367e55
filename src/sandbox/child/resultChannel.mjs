// The child's side of the result channel (fd 3; the harness's side is src/sandbox/childMessages.ts):
// one JSON line per message, the runner's `ready`, its bridged requests (rpcChannel.mjs) and the one
// `result`. fd 3 rather than stdout, so the model's console.log cannot corrupt the result. Model
// code can write fd 3 too; the harness trusts nothing on it (docs/SECURITY.md, "Result channel").
import { writeSync } from "node:fs";
import { bufferFrom, isView, SafeError, SafeMap, SafeSet, stringify, stringSlice } from "./primordials.mjs";

const RESULT_FD = 3;
const MAX_MESSAGE_CHARS = 8_192;

let settled = false;

/** Writes one line (`line` without its newline) on fd 3, whole, before returning. */
export function send(line) {
  const bytes = bufferFrom(`${line}\n`);
  let written = 0;
  while (written < bytes.length) written += writeSync(RESULT_FD, bytes, written);
}

/** True once a result went out: every later one is dropped. */
export function isSettled() {
  return settled;
}

/**
 * Sends the successful result: `json` is the return value's encoding ({@link encode}), undefined for
 * no value. Once only, like {@link fail}.
 */
export function succeed(json) {
  if (settled) return;
  settled = true;
  send(json === undefined ? '{"type":"result","ok":true}' : `{"type":"result","ok":true,"value":${json}}`);
}

// Written by hand from strings only: JSON.stringify of an object would consult a toJSON the module
// may have put on Object.prototype.
/**
 * Sends the failed result, once: `code` one of the runner's own (childMessages.ts accepts no other),
 * `message` cut at 8,192 characters.
 */
export function fail(code, message) {
  if (settled) return;
  settled = true;
  const text =
    message.length > MAX_MESSAGE_CHARS ? `${stringSlice(message, 0, MAX_MESSAGE_CHARS)}…` : message;
  send(`{"type":"result","ok":false,"code":${stringify(code)},"message":${stringify(text)}}`);
}

function safeString(value) {
  try {
    return typeof value === "string" ? value : String(value);
  } catch {
    return "(not printable)";
  }
}

/** "Name: message" of an Error, else the thrown value as text; never throws. */
export function errorText(error) {
  try {
    if (error instanceof SafeError) return `${safeString(error.name)}: ${safeString(error.message)}`;
    return `Thrown value: ${safeString(error)}`;
  } catch {
    return "Thrown value (not printable)";
  }
}

/**
 * Fails with what `error` is: `permission_denied` when it or one of its causes (ethers and viem keep
 * the original as `cause`, up to 8 deep) is ERR_ACCESS_DENIED, else `runtime_error`.
 */
export function failWithError(error) {
  try {
    let current = error;
    for (let depth = 0; current && depth < 8; depth++, current = current.cause) {
      if (current.code === "ERR_ACCESS_DENIED") {
        const what = [current.permission, current.resource].filter(Boolean).join(" ");
        return fail(
          "permission_denied",
          `${safeString(current.message)}${what ? ` (${safeString(what)})` : ""}`,
        );
      }
    }
  } catch {
    // A getter of the module's own error threw: report the error as it stands.
  }
  return fail("runtime_error", errorText(error));
}

/** A return value that cannot be sent; its message says which field and why. */
export class OutputInvalid extends SafeError {}

/**
 * The return value as JSON: bigint and byte arrays are tagged (`$bigint`, `$bytes`) so the parent
 * can revive them (reviveValue.ts); what JSON would silently drop or mangle (functions, symbols, Map,
 * Set) is refused instead.
 * @returns {string | undefined} undefined for undefined.
 * @throws {OutputInvalid} for a function, symbol, Map or Set anywhere in the value.
 */
export function encode(value) {
  if (value === undefined) return undefined;
  return stringify(value, function replacer(key, encoded) {
    const raw = this[key];
    const where = key === "" ? "the return value" : `field "${key}"`;
    if (typeof raw === "bigint") return { $bigint: raw.toString() };
    if (isView(raw)) {
      const bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
      return { $bytes: `0x${bufferFrom(bytes).toString("hex")}` };
    }
    if (typeof raw === "function") throw new OutputInvalid(`${where} is a function`);
    if (typeof raw === "symbol") throw new OutputInvalid(`${where} is a symbol`);
    if (raw instanceof SafeMap || raw instanceof SafeSet) {
      throw new OutputInvalid(
        `${where} is a ${raw instanceof SafeMap ? "Map" : "Set"}; return plain objects or arrays`,
      );
    }
    return encoded;
  });
}
