// Entry point of the sandboxed child process (plain JavaScript: it runs without a transpile step).
// The harness copies it next to the model's `module.mjs` and runs it with Node's permission model.
// Protocol: the runner preloads the library bundles named in argv[2] (so a warm child has paid for
// them before any model code exists), writes `{"type":"ready"}` on fd 3, then waits for one line on
// stdin: the execution's input (providerUrl, agentAddress, deployedContracts, maxOutputBytes). Only
// then does it import module.mjs. It answers with one `{"type":"result",...}` line on fd 3.
// fd 3 rather than stdout, so the model's console.log cannot corrupt the result.
// stdin closing before the input arrives (the harness exited) ends the runner quietly.
import { writeSync } from "node:fs";

const RESULT_FD = 3;
const MAX_MESSAGE_CHARS = 8_192;

// Captured before the model's code runs, so a module that patches globals cannot break the reply.
const stringify = JSON.stringify;
const bufferFrom = Buffer.from.bind(Buffer);
const isView = ArrayBuffer.isView;

const { preload } = JSON.parse(process.argv[2]);
let input;
let settled = false;

function send(line) {
  const bytes = bufferFrom(`${line}\n`);
  let written = 0;
  while (written < bytes.length) written += writeSync(RESULT_FD, bytes, written);
}

function fail(code, message) {
  if (settled) return;
  settled = true;
  const text = message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
  send(stringify({ type: "result", ok: false, code, message: text }));
}

function errorText(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return `Thrown value: ${String(error)}`;
  } catch {
    return "Thrown value (not printable)";
  }
}

// A permission error may arrive wrapped (ethers and viem keep the original as `cause`).
function failWithError(error) {
  let current = error;
  for (let depth = 0; current && depth < 8; depth++, current = current.cause) {
    if (current.code === "ERR_ACCESS_DENIED") {
      const what = [current.permission, current.resource].filter(Boolean).join(" ");
      return fail("permission_denied", `${current.message}${what ? ` (${what})` : ""}`);
    }
  }
  return fail("runtime_error", errorText(error));
}

class OutputInvalid extends Error {}

// bigint and byte arrays are tagged so the parent can revive them; what JSON would silently drop
// or mangle (functions, symbols, Map, Set) is refused instead.
function encode(value) {
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
    if (raw instanceof Map || raw instanceof Set) {
      throw new OutputInvalid(
        `${where} is a ${raw instanceof Map ? "Map" : "Set"}; return plain objects or arrays`,
      );
    }
    return encoded;
  });
}

// The event loop emptied while executeSkill's promise was pending: nothing can settle it any more.
// Reported as a timeout at once instead of waiting for the wall clock (see executeModule.ts).
process.on("beforeExit", () => {
  fail(
    "timeout",
    "executeSkill returned a promise that never settles (the event loop emptied while waiting for it).",
  );
});
// Errors thrown from timers or stray promises during the execution belong to the model's code.
process.on("uncaughtException", (error) => failWithError(error));
process.on("unhandledRejection", (error) => failWithError(error));

// The environment is empty, but the model's own code may not even look: a read of process.env from
// module.mjs is a permission error (a secret-hunting module is stopped, not merely disappointed).
// Libraries (ethers, viem, ws) may still read it and get nothing, as in any empty environment.
const realEnv = process.env;
const captureStack = Error.captureStackTrace;
// Decided by the frame that made the read (past this runner's traps and built-ins such as
// JSON.stringify): Node's own console reads FORCE_COLOR and friends when the module logs, and that
// read must not count as the module's.
function fromModelCode() {
  const holder = {};
  captureStack(holder);
  if (typeof holder.stack !== "string") return false;
  const reader = holder.stack
    .split("\n")
    .slice(1)
    .find((frame) => !frame.includes("/runner.mjs") && !frame.endsWith("(<anonymous>)"));
  return reader !== undefined && reader.includes("/module.mjs");
}
function envDenied() {
  const error = new Error("Access to process.env is not allowed in the benchmark sandbox.");
  error.code = "ERR_ACCESS_DENIED";
  error.permission = "Environment";
  return error;
}
const guardedEnv = new Proxy(realEnv, {
  get(target, key, receiver) {
    if (typeof key === "string" && fromModelCode()) throw envDenied();
    return Reflect.get(target, key, receiver);
  },
  has(target, key) {
    if (fromModelCode()) throw envDenied();
    return Reflect.has(target, key);
  },
  ownKeys(target) {
    if (fromModelCode()) throw envDenied();
    return Reflect.ownKeys(target);
  },
});
Object.defineProperty(process, "env", {
  value: guardedEnv,
  configurable: false,
  writable: false,
  enumerable: true,
});

async function main() {
  let mod;
  try {
    mod = await import("./module.mjs");
  } catch (error) {
    return failWithError(error);
  }
  if (!("executeSkill" in mod)) return fail("no_export", "The module does not export executeSkill.");
  const executeSkill = mod.executeSkill;
  if (typeof executeSkill !== "function") {
    return fail(
      "signature_mismatch",
      `executeSkill is exported as a ${typeof executeSkill}, not a function.`,
    );
  }
  if (executeSkill.length > 3) {
    return fail(
      "signature_mismatch",
      `executeSkill declares ${executeSkill.length} parameters; it is called with 3 (providerUrl, agentAddress, deployedContracts).`,
    );
  }
  let value;
  try {
    value = await executeSkill(input.providerUrl, input.agentAddress, input.deployedContracts);
  } catch (error) {
    return failWithError(error);
  }
  if (settled) return;
  let json;
  try {
    json = encode(value);
  } catch (error) {
    const reason = error instanceof OutputInvalid ? error.message : errorText(error);
    return fail("output_invalid", `The return value cannot be sent to the harness: ${reason}.`);
  }
  const bytes = json === undefined ? 0 : Buffer.byteLength(json);
  if (bytes > input.maxOutputBytes) {
    return fail(
      "output_too_large",
      `The return value is ${bytes} bytes of JSON; the limit is ${input.maxOutputBytes}.`,
    );
  }
  settled = true;
  send(json === undefined ? '{"type":"result","ok":true}' : `{"type":"result","ok":true,"value":${json}}`);
}

function readInput() {
  return new Promise((resolve) => {
    let text = "";
    const stdin = process.stdin;
    stdin.setEncoding("utf8");
    const onData = (chunk) => {
      text += chunk;
      const newline = text.indexOf("\n");
      if (newline === -1) return;
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      // Nothing more comes: the open pipe must not keep the event loop alive (never-settling
      // promises are detected by the loop emptying, see beforeExit above).
      stdin.destroy();
      resolve(JSON.parse(text.slice(0, newline)));
    };
    const onEnd = () => process.exit(0);
    stdin.on("data", onData);
    stdin.on("end", onEnd);
  });
}

async function start() {
  try {
    for (const file of preload) await import(file);
  } catch (error) {
    // The harness's own bundle failed to load: no result (that would be blamed on the model).
    process.stderr.write(`preload failed: ${errorText(error)}\n`);
    process.exit(70);
  }
  send('{"type":"ready"}');
  input = await readInput();
  await main();
}

start().catch(failWithError);
