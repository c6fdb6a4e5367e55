// Entry point of the sandboxed child process (plain JavaScript: it runs without a transpile step).
// The harness stages it beside the library bundle (stage.ts) and runs it under Node's permission
// model; the model's `module.mjs` sits in a folder of its own.
// Protocol: the runner locks the process down (below), preloads the library bundles named in argv[2]
// (so a warm child has paid for them before any model code exists), writes `{"type":"ready"}` on
// fd 3, then waits for one line on stdin: the execution's input (providerUrl, agentAddress,
// deployedContracts, maxOutputBytes). Only then does it import module.mjs. It answers with one
// `{"type":"result",...}` line on fd 3.
// fd 3 rather than stdout, so the model's console.log cannot corrupt the result.
// stdin closing (the harness exited), before or after the input arrived, ends the runner quietly.
//
// It is also the module's only way out: on a Node whose permission model denies the network
// (≥ 25, no --allow-net) every socket is refused, so `fetch` to providerUrl's origin is carried over
// the same pipes instead — `{"type":"rpc",id,method,path,body}` on fd 3, answered by a
// `{"type":"rpc",id,status,headers,body}` line on stdin — and the harness hands it to this
// execution's RPC guard. The ethers and viem bundles use fetch (see libraryBundle.ts).
// Threat model and what holds where: docs/SECURITY.md.
//
// What runs after the model's code may have run uses only references captured here, before it: a
// module can replace any global or prototype method (String.prototype.startsWith, Set.prototype.has,
// JSON.stringify, Object.prototype.toJSON, Error.prepareStackTrace, …) and must not steer the runner.
import { writeSync } from "node:fs";
import * as nodeModule from "node:module";
import { pathToFileURL } from "node:url";
// Loaded before the lockdown below: without it, Node's fetch (undici) loads worker_threads only after
// the lockdown, and worker_threads assigns process.chdir, which the lockdown made read-only (the
// child then dies before the module runs: tests/sandbox.test.ts).
import "node:util";
import { closeInheritedFds } from "./child/fdBarrier.mjs";

const { apply, defineProperty, getOwnPropertyDescriptor } = Reflect;
const uncurry =
  (fn) =>
  (self, ...args) =>
    apply(fn, self, args);
const startsWith = uncurry(String.prototype.startsWith);
const stringSlice = uncurry(String.prototype.slice);
const indexOf = uncurry(String.prototype.indexOf);
const stringify = JSON.stringify;
const parseJson = JSON.parse;
const objectCreate = Object.create;
const hasOwn = Object.hasOwn;
const SafeError = Error;
const bufferFrom = Buffer.from.bind(Buffer);
const byteLength = Buffer.byteLength.bind(Buffer);
const isView = ArrayBuffer.isView;
const SafeMap = Map;
const SafeSet = Set;
const mapGet = uncurry(Map.prototype.get);
const mapSet = uncurry(Map.prototype.set);
const mapDelete = uncurry(Map.prototype.delete);
const mapSize = uncurry(getOwnPropertyDescriptor(Map.prototype, "size").get);
const promiseThen = uncurry(Promise.prototype.then);
const SafePromise = Promise;
const isBuiltin = nodeModule.isBuiltin;

const config = parseJson(process.argv[2]);
// First: no descriptor but fds 0–3 (and Node's own) from here on.
closeInheritedFds(config.closeFds);
/** Built-ins the model may load (sandboxBuiltins.ts): a null-prototype set no prototype can extend. */
const allowedBuiltins = objectCreate(null);
for (const name of config.builtins) allowedBuiltins[name] = true;
/** Import specifier (`"ethers"`) and file URL of each bundle entry → that entry's file URL. */
const entryUrls = objectCreate(null);
for (const name of Object.keys(config.entries)) {
  const url = pathToFileURL(config.entries[name]).href;
  entryUrls[name] = url;
  entryUrls[config.entries[name]] = url;
  entryUrls[url] = url;
}
const bundleUrl = `${pathToFileURL(config.bundleDir).href}/`;
const runnerUrl = import.meta.url;
const moduleUrl = pathToFileURL(config.moduleFile).href;
const allowedList = config.builtins.join(", ");

const RESULT_FD = 3;
const MAX_MESSAGE_CHARS = 8_192;

function accessDenied(message, permission, resource) {
  const error = new SafeError(message);
  for (const [key, value] of [
    ["code", "ERR_ACCESS_DENIED"],
    ["permission", permission],
    ["resource", resource],
  ])
    defineProperty(error, key, { value, writable: true, configurable: true, enumerable: true });
  return error;
}

// --- Built-in modules: one allowlist at every door ------------------------------------------------
function builtinName(specifier) {
  return startsWith(specifier, "node:") ? stringSlice(specifier, 5) : specifier;
}
function builtinDenied(specifier) {
  return accessDenied(
    `Loading the built-in module ${specifier} is not allowed in the benchmark sandbox (allowed: ${allowedList}; packages: ethers, viem).`,
    "BuiltinModule",
    String(specifier),
  );
}

// import (static and dynamic), require and import.meta.resolve all pass this hook. Model code may name
// an allowed built-in or an ethers/viem entry, nothing else (no file, data: or package lookups, which
// would also tell it which host files exist); bundle files may load bundle files. No disk is touched
// for a refused specifier.
if (typeof nodeModule.registerHooks === "function") {
  nodeModule.registerHooks({
    resolve(specifier, context, nextResolve) {
      if (typeof specifier !== "string") throw builtinDenied(String(specifier));
      const parent = hasOwn(context, "parentURL") ? context.parentURL : undefined;
      if (isBuiltin(specifier)) {
        if (allowedBuiltins[builtinName(specifier)] === true) return nextResolve(specifier, context);
        throw builtinDenied(specifier);
      }
      const entry = entryUrls[specifier];
      if (typeof entry === "string") return { url: entry, format: "module", shortCircuit: true };
      if (parent === runnerUrl && specifier === moduleUrl)
        return { url: moduleUrl, format: "module", shortCircuit: true };
      if (typeof parent === "string" && startsWith(parent, bundleUrl) && startsWith(specifier, "./")) {
        const resolved = nextResolve(specifier, context);
        if (typeof resolved.url === "string" && startsWith(resolved.url, bundleUrl)) return resolved;
      }
      throw accessDenied(
        `Importing ${specifier} is not allowed in the benchmark sandbox: a module may import ethers, viem and the built-ins ${allowedList}.`,
        "Import",
        specifier,
      );
    },
  });
}

/** Redefines `target[name]` for good: non-configurable, non-writable. */
function lock(target, name, descriptor) {
  defineProperty(target, name, { configurable: false, enumerable: false, ...descriptor });
}
function deniedFunction(what, permission) {
  return function denied() {
    throw accessDenied(`${what} is not allowed in the benchmark sandbox.`, permission);
  };
}

const realGetBuiltinModule = process.getBuiltinModule;
if (typeof realGetBuiltinModule === "function") {
  lock(process, "getBuiltinModule", {
    writable: false,
    value: function getBuiltinModule(id) {
      if (typeof id !== "string" || !isBuiltin(id)) return undefined;
      if (allowedBuiltins[builtinName(id)] !== true) throw builtinDenied(id);
      return apply(realGetBuiltinModule, process, [id]);
    },
  });
}

// Doors to native code, other processes and the real environment, refused whatever the permission
// model says. Signals: Node's permission model lets a process signal any process of its uid (the
// harness, sibling sandboxes); process.kill, process._kill and process._debugProcess reach kill(2).
for (const [name, what, permission] of [
  ["binding", "process.binding", "Binding"],
  ["_linkedBinding", "process._linkedBinding", "Binding"],
  ["dlopen", "process.dlopen", "Addon"],
  ["execve", "process.execve", "ChildProcess"],
  ["chdir", "process.chdir", "FileSystem"],
  ["loadEnvFile", "process.loadEnvFile", "Environment"],
  ["kill", "Sending signals", "Signal"],
  ["_kill", "Sending signals", "Signal"],
  // SIGUSR1 to any pid, past the permission model: it would open the harness's inspector.
  ["_debugProcess", "Sending signals", "Signal"],
  ["_debugEnd", "process._debugEnd", "Inspector"],
])
  lock(process, name, { writable: false, value: deniedFunction(what, permission) });
// process.report.getReport() lists the environment, the loaded libraries and the host.
lock(process, "report", { get: deniedFunction("process.report", "Environment") });
// crypto is allowed; its one door to native code is not.
{
  const crypto = apply(realGetBuiltinModule, process, ["node:crypto"]);
  if (typeof crypto.setEngine === "function")
    lock(crypto, "setEngine", { writable: false, value: deniedFunction("crypto.setEngine", "Addon") });
  nodeModule.syncBuiltinESMExports();
}

// The environment: empty (the harness spawns the child with none), and process.env is detached from
// it as well: an empty frozen object behind a proxy, so not even a key the harness let through could
// be read. It decides by key, never by who asks (a stack can be forged or trimmed): the variables
// Node's own code reads while a module runs (the colour depth of console and util.inspect,
// node:internal/tty; the ESM loader's WATCH_REPORT_DEPENDENCIES at every import) read as absent for
// anyone; any other key, `in` on it, its descriptor and every
// enumeration (Object.keys, JSON.stringify, util.inspect, spreading) are refused, so a
// secret-hunting module is stopped, not merely disappointed.
const nodeReadsEnv = objectCreate(null);
for (const key of [
  "FORCE_COLOR",
  "NO_COLOR",
  "NODE_DISABLE_COLORS",
  "TERM",
  "TMUX",
  "CI",
  "CI_NAME",
  "TEAMCITY_VERSION",
  "TERM_PROGRAM",
  "TERM_PROGRAM_VERSION",
  "COLORTERM",
  "APPVEYOR",
  "BUILDKITE",
  "CIRCLECI",
  "DRONE",
  "GITHUB_ACTIONS",
  "GITLAB_CI",
  "TRAVIS",
  "NODE_DEBUG",
  "WATCH_REPORT_DEPENDENCIES",
])
  nodeReadsEnv[key] = true;
const readsAsAbsent = (key) => typeof key === "string" && hasOwn(nodeReadsEnv, key);
function envDenied() {
  return accessDenied("Access to process.env is not allowed in the benchmark sandbox.", "Environment");
}
const emptyEnv = Object.freeze(objectCreate(null));
const envTraps = {
  get(_target, key) {
    // Symbols (Symbol.toPrimitive, util.inspect.custom, …) are no variable: absent.
    if (typeof key === "string" && !readsAsAbsent(key)) throw envDenied();
    return undefined;
  },
  has(_target, key) {
    if (!readsAsAbsent(key)) throw envDenied();
    return false;
  },
  ownKeys() {
    throw envDenied();
  },
  getOwnPropertyDescriptor(_target, key) {
    if (!readsAsAbsent(key)) throw envDenied();
    return undefined;
  },
  set() {
    return true;
  },
  defineProperty() {
    return false;
  },
  deleteProperty() {
    return true;
  },
};
// util.inspect shows a proxy's target without calling its traps: the empty frozen object, no key.
const guardedEnv = new Proxy(emptyEnv, envTraps);
lock(process, "env", { writable: false, enumerable: true, value: guardedEnv });

let input;
let settled = false;

// --- The RPC bridge -------------------------------------------------------------------------
const realFetch = globalThis.fetch;
const RealRequest = globalThis.Request;
const RealResponse = globalThis.Response;
const SafeURL = URL;
const MAX_RPC_BODY_CHARS = 1024 * 1024;
/** providerUrl's origin once the input arrived; requests to it travel over the pipe. */
let bridgedOrigin;
const pendingRpc = new SafeMap();
let nextRpcId = 1;
const stdin = process.stdin;
const stdinRef = stdin.ref.bind(stdin);
const stdinUnref = stdin.unref.bind(stdin);

// stdin keeps the event loop alive only while an answer is awaited (see beforeExit below).
function refStdin() {
  if (mapSize(pendingRpc) > 0) stdinRef();
  else stdinUnref();
}

// At most config.maxRpcInFlight requests are out at once (the harness refuses more, rpcBridge.ts);
// the others wait here, in the child's memory, in the order they were made.
const maxInFlight =
  Number.isSafeInteger(config.maxRpcInFlight) && config.maxRpcInFlight > 0 ? config.maxRpcInFlight : 1;
let inFlight = 0;
/** Requests waiting for a slot: a queue over a Map (no Array method a module could replace). */
const waiting = new SafeMap();
let waitingHead = 0;
let waitingTail = 0;

function takeSlot(entry) {
  if (inFlight < maxInFlight) {
    inFlight++;
    entry.start();
  } else mapSet(waiting, waitingTail++, entry);
}

function releaseSlot() {
  inFlight--;
  while (waitingHead < waitingTail) {
    const entry = mapGet(waiting, waitingHead);
    mapDelete(waiting, waitingHead++);
    if (entry.cancelled) continue;
    inFlight++;
    entry.start();
    return;
  }
}

/** Sends one request to the harness; resolves with `{status, headers, body}`. */
function rpcOverPipe(method, path, body, signal) {
  return new SafePromise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const id = nextRpcId++;
    const entry = { cancelled: false, sent: false, start: undefined };
    const onAbort = () => {
      if (entry.sent)
        // Its slot stays taken until the harness answers: the harness still counts it in flight.
        mapSet(pendingRpc, id, releaseSlot);
      else entry.cancelled = true;
      reject(signal.reason);
    };
    entry.start = () => {
      entry.sent = true;
      mapSet(pendingRpc, id, (answer) => {
        signal?.removeEventListener("abort", onAbort);
        releaseSlot();
        resolve(answer);
      });
      refStdin();
      send(
        `{"type":"rpc","id":${id},"method":${stringify(String(method))},"path":${stringify(String(path))},"body":${stringify(String(body))}}`,
      );
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    takeSlot(entry);
  });
}

function onRpcAnswer(message) {
  const settle = mapGet(pendingRpc, message.id);
  if (!settle) return;
  mapDelete(pendingRpc, message.id);
  refStdin();
  settle(message);
}

function tooLargeAnswer() {
  return { status: 413, headers: {}, body: "" };
}

globalThis.fetch = async function fetch(resource, init) {
  const request = new RealRequest(resource, init);
  const url = new SafeURL(request.url);
  // Anything else goes to Node's fetch, which the permission model refuses.
  if (bridgedOrigin === undefined || url.origin !== bridgedOrigin) return realFetch(resource, init);
  const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
  const answer =
    body.length > MAX_RPC_BODY_CHARS
      ? tooLargeAnswer()
      : await rpcOverPipe(request.method, url.pathname + url.search, body, request.signal);
  const empty = answer.status === 204 || answer.status === 304 || answer.body === "";
  return new RealResponse(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
};

function send(line) {
  const bytes = bufferFrom(`${line}\n`);
  let written = 0;
  while (written < bytes.length) written += writeSync(RESULT_FD, bytes, written);
}

// Written by hand from strings only: JSON.stringify of an object would consult a toJSON the module
// may have put on Object.prototype.
function fail(code, message) {
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

function errorText(error) {
  try {
    if (error instanceof SafeError) return `${safeString(error.name)}: ${safeString(error.message)}`;
    return `Thrown value: ${safeString(error)}`;
  } catch {
    return "Thrown value (not printable)";
  }
}

// A permission error may arrive wrapped (ethers and viem keep the original as `cause`).
function failWithError(error) {
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

class OutputInvalid extends SafeError {}

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
    if (raw instanceof SafeMap || raw instanceof SafeSet) {
      throw new OutputInvalid(
        `${where} is a ${raw instanceof SafeMap ? "Map" : "Set"}; return plain objects or arrays`,
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

async function main() {
  let mod;
  try {
    mod = await import(moduleUrl);
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
  if (json !== undefined && typeof json !== "string")
    return fail("output_invalid", "The return value cannot be sent to the harness.");
  const bytes = json === undefined ? 0 : byteLength(json);
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
  return new SafePromise((resolve) => {
    let text = "";
    let gotInput = false;
    stdin.setEncoding("utf8");
    stdin.on("data", (chunk) => {
      text += chunk;
      for (let newline = indexOf(text, "\n"); newline !== -1; newline = indexOf(text, "\n")) {
        const line = stringSlice(text, 0, newline);
        text = stringSlice(text, newline + 1);
        const message = parseJson(line);
        if (!gotInput) {
          gotInput = true;
          // Only pending bridged requests keep the loop alive (never-settling promises are
          // detected by the loop emptying, see beforeExit above).
          refStdin();
          resolve(message);
        } else if (message.type === "rpc") onRpcAnswer(message);
      }
    });
    // The harness never closes stdin: its end means the harness is gone, whose timeout was this
    // module's only clock and who alone could read a result. Idle or running, the child leaves.
    stdin.on("end", () => process.exit(0));
  });
}

async function start() {
  try {
    for (const file of config.preload) await import(entryUrls[file] ?? file);
  } catch (error) {
    // The harness's own bundle failed to load: no result (that would be blamed on the model).
    process.stderr.write(`preload failed: ${errorText(error)}\n`);
    process.exit(70);
  }
  send('{"type":"ready"}');
  input = await readInput();
  try {
    bridgedOrigin = new SafeURL(input.providerUrl).origin;
  } catch {
    // Not a URL: nothing to bridge.
  }
  await main();
}

promiseThen(start(), undefined, failWithError);
