// Entry point of the sandboxed child process (plain JavaScript: it runs without a transpile step).
// The harness copies it next to the model's `module.mjs` and runs it with Node's permission model.
// Protocol: the runner preloads the library bundles named in argv[2] (so a warm child has paid for
// them before any model code exists), writes `{"type":"ready"}` on fd 3, then waits for one line on
// stdin: the execution's input (providerUrl, agentAddress, deployedContracts, maxOutputBytes). Only
// then does it import module.mjs. It answers with one `{"type":"result",...}` line on fd 3.
// fd 3 rather than stdout, so the model's console.log cannot corrupt the result.
// stdin closing before the input arrives (the harness exited) ends the runner quietly.
//
// It is also the module's only way out: on a Node whose permission model denies the network
// (≥ 25, no --allow-net) every socket is refused, so `fetch` to providerUrl's origin is carried over
// the same pipes instead — `{"type":"rpc",id,method,path,body}` on fd 3, answered by a
// `{"type":"rpc",id,status,headers,body}` line on stdin — and the harness hands it to this
// execution's RPC guard. ethers' bundle uses its fetch-based getUrl (see libraryBundle.ts); viem's
// http transport uses fetch; node:http(s) requests to providerUrl are bridged the same way.
// Threat model and what holds where: docs/SECURITY.md.
import { writeSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import { PassThrough, Readable, Writable } from "node:stream";

// No signals: Node's permission model lets a process signal any process of its uid (the harness,
// sibling sandboxes). process.binding is denied, so these two are the only ways to kill(2).
// os.setPriority could renice the harness: refused too.
function signalDenied() {
  const error = new Error("Sending signals or changing priorities is not allowed in the benchmark sandbox.");
  error.code = "ERR_ACCESS_DENIED";
  error.permission = "Signal";
  throw error;
}
for (const [target, name] of [
  [process, "kill"],
  [process, "_kill"],
  [os, "setPriority"],
]) {
  Object.defineProperty(target, name, {
    value: signalDenied,
    configurable: false,
    writable: false,
    enumerable: false,
  });
}

const RESULT_FD = 3;
const MAX_MESSAGE_CHARS = 8_192;

// Captured before the model's code runs, so a module that patches globals cannot break the reply.
const stringify = JSON.stringify;
const bufferFrom = Buffer.from.bind(Buffer);
const isView = ArrayBuffer.isView;

const { preload } = JSON.parse(process.argv[2]);
let input;
let settled = false;

// --- The RPC bridge -------------------------------------------------------------------------
const realFetch = globalThis.fetch;
const RealRequest = globalThis.Request;
const RealResponse = globalThis.Response;
const MAX_RPC_BODY_CHARS = 1024 * 1024;
/** providerUrl's origin once the input arrived; requests to it travel over the pipe. */
let bridgedOrigin;
const pendingRpc = new Map();
let nextRpcId = 1;

// stdin keeps the event loop alive only while an answer is awaited (see beforeExit below).
function refStdin() {
  if (pendingRpc.size > 0) process.stdin.ref();
  else process.stdin.unref();
}

/** Sends one request to the harness; resolves with `{status, headers, body}`. */
function rpcOverPipe(method, path, body, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const id = nextRpcId++;
    const onAbort = () => {
      pendingRpc.delete(id);
      refStdin();
      reject(signal.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    pendingRpc.set(id, (answer) => {
      signal?.removeEventListener("abort", onAbort);
      resolve(answer);
    });
    refStdin();
    send(stringify({ type: "rpc", id, method, path, body }));
  });
}

function onRpcAnswer(message) {
  const settle = pendingRpc.get(message.id);
  if (!settle) return;
  pendingRpc.delete(message.id);
  refStdin();
  settle(message);
}

function bridged(url) {
  return bridgedOrigin !== undefined && url.origin === bridgedOrigin;
}

function tooLargeAnswer() {
  return { status: 413, headers: {}, body: "" };
}

globalThis.fetch = async function fetch(resource, init) {
  const request = new RealRequest(resource, init);
  const url = new URL(request.url);
  // Anything else goes to Node's fetch, which the permission model refuses.
  if (!bridged(url)) return realFetch(resource, init);
  const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
  const answer =
    body.length > MAX_RPC_BODY_CHARS
      ? tooLargeAnswer()
      : await rpcOverPipe(request.method, url.pathname + url.search, body, request.signal);
  const empty = answer.status === 204 || answer.status === 304 || answer.body === "";
  return new RealResponse(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
};

/** node:http(s) `request`/`get` to providerUrl's origin, bridged; anything else as Node does it. */
function bridgeModule(module) {
  const realRequest = module.request;
  const bridgedRequest = function request(...args) {
    let url;
    let options = {};
    let callback;
    for (const arg of args) {
      if (typeof arg === "function") callback = arg;
      else if (typeof arg === "string" || arg instanceof URL) url = new URL(arg);
      else if (arg && typeof arg === "object") options = arg;
    }
    if (!url) {
      const protocol = options.protocol ?? (module === https ? "https:" : "http:");
      const host = options.hostname ?? options.host ?? "localhost";
      const port = options.port ? `:${options.port}` : "";
      try {
        url = new URL(`${protocol}//${host.includes(":") ? `[${host}]` : host}${port}${options.path ?? "/"}`);
      } catch {
        return realRequest.apply(this, args);
      }
    }
    if (!bridged(url)) return realRequest.apply(this, args);
    return fakeClientRequest(options.method ?? "GET", url.pathname + url.search, callback);
  };
  module.request = bridgedRequest;
  module.get = function get(...args) {
    const request = bridgedRequest(...args);
    request.end();
    return request;
  };
}

// A ClientRequest stand-in: collects the body, sends it over the pipe at end(), and emits a
// 'response' whose stream carries the guard's answer.
function fakeClientRequest(method, path, callback) {
  const chunks = [];
  let size = 0;
  const request = new Writable({
    write(chunk, _encoding, done) {
      const text = typeof chunk === "string" ? chunk : bufferFrom(chunk).toString("utf8");
      size += text.length;
      chunks.push(text);
      done();
    },
    final(done) {
      const body = chunks.join("");
      const answered =
        size > MAX_RPC_BODY_CHARS ? Promise.resolve(tooLargeAnswer()) : rpcOverPipe(method, path, body);
      answered.then(
        (answer) => {
          const response = Readable.from(answer.body ? [bufferFrom(answer.body)] : []);
          response.statusCode = answer.status;
          response.statusMessage = http.STATUS_CODES[answer.status] ?? "";
          response.headers = { ...answer.headers };
          if (callback) request.once("response", callback);
          request.emit("response", response);
        },
        (error) => request.destroy(error),
      );
      done();
    },
  });
  request.setHeader = () => request;
  request.getHeader = () => undefined;
  request.removeHeader = () => {};
  request.setTimeout = () => request;
  request.setNoDelay = () => {};
  request.setSocketKeepAlive = () => {};
  request.abort = () => request.destroy();
  request.socket = new PassThrough();
  return request;
}
bridgeModule(http);
bridgeModule(https);
syncBuiltinESMExports();

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

// Lines from the harness on stdin: first the input, then the answers to bridged requests.
function readInput() {
  return new Promise((resolve) => {
    let text = "";
    let gotInput = false;
    const stdin = process.stdin;
    stdin.setEncoding("utf8");
    stdin.on("data", (chunk) => {
      text += chunk;
      for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n")) {
        const line = text.slice(0, newline);
        text = text.slice(newline + 1);
        const message = JSON.parse(line);
        if (!gotInput) {
          gotInput = true;
          // Only pending bridged requests keep the loop alive (never-settling promises are
          // detected by the loop emptying, see beforeExit above).
          refStdin();
          resolve(message);
        } else if (message.type === "rpc") onRpcAnswer(message);
      }
    });
    stdin.on("end", () => {
      if (!gotInput) process.exit(0);
    });
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
  try {
    bridgedOrigin = new URL(input.providerUrl).origin;
  } catch {
    // Not a URL: nothing to bridge.
  }
  await main();
}

start().catch(failWithError);
