// Entry point of the sandboxed child process (plain JavaScript: it runs without a transpile step).
// The harness stages it beside the library bundle and its own modules, ./child/*.mjs (stage.ts), and
// runs it under Node's permission model; the model's `module.mjs` sits in a folder of its own.
// Protocol: the runner locks the process down (below), preloads the library bundles named in argv[2]
// (so a warm child has paid for them before any model code exists), writes `{"type":"ready"}` on
// fd 3, then waits for one line on stdin: the execution's input (providerUrl, agentAddress,
// deployedContracts, maxOutputBytes). Only then does it import module.mjs. It answers with one
// `{"type":"result",...}` line on fd 3 (child/resultChannel.mjs). stdin closing (the harness
// exited), before or after the input arrived, ends the runner quietly.
//
// Each barrier is a module of ./child, installed here in this order before the preload:
// descriptors (fdBarrier.mjs), built-in modules (builtinBarrier.mjs), the doors of `process`
// (processDoors.mjs), the environment (envBarrier.mjs), then the module's only way out, the RPC
// bridge over the same pipes (rpcChannel.mjs). Threat model and what holds where: docs/SECURITY.md.
//
// What runs after the model's code may have run uses only references captured before it
// (child/primordials.mjs, imported first): a module can replace any global or prototype method.

import { pathToFileURL } from "node:url";
import { byteLength, parseJson, promiseThen } from "./child/primordials.mjs";
// Loaded before the lockdown below: without it, Node's fetch (undici) loads worker_threads only after
// the lockdown, and worker_threads assigns process.chdir, which the lockdown made read-only (the
// child then dies before the module runs: tests/sandbox.test.ts).
import "node:util";
import { installBuiltinBarrier } from "./child/builtinBarrier.mjs";
import { detachEnvironment } from "./child/envBarrier.mjs";
import { closeInheritedFds } from "./child/fdBarrier.mjs";
import { lockProcessDoors } from "./child/processDoors.mjs";
import {
  encode,
  errorText,
  fail,
  failWithError,
  isSettled,
  OutputInvalid,
  send,
  succeed,
} from "./child/resultChannel.mjs";
import { bridgeTo, installRpcChannel, readInput } from "./child/rpcChannel.mjs";

const config = parseJson(process.argv[2]);
// First: no descriptor but fds 0–3 (and Node's own) from here on.
closeInheritedFds(config.closeFds);
/** Import specifier (`"ethers"`) and file URL of each bundle entry → that entry's file URL. */
const entryUrls = Object.create(null);
for (const name of Object.keys(config.entries)) {
  const url = pathToFileURL(config.entries[name]).href;
  entryUrls[name] = url;
  entryUrls[config.entries[name]] = url;
  entryUrls[url] = url;
}
const moduleUrl = pathToFileURL(config.moduleFile).href;

const realGetBuiltinModule = installBuiltinBarrier({
  builtins: config.builtins,
  entryUrls,
  bundleUrl: `${pathToFileURL(config.bundleDir).href}/`,
  runnerUrl: import.meta.url,
  moduleUrl,
});
lockProcessDoors(realGetBuiltinModule);
detachEnvironment();
installRpcChannel(config.maxRpcInFlight);

let input;

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
  if (isSettled()) return;
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
  succeed(json);
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
  bridgeTo(input.providerUrl);
  await main();
}

promiseThen(start(), undefined, failWithError);
