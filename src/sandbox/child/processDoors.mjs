// The doors of `process` to native code, other processes and the real environment, refused whatever
// the permission model says (docs/SECURITY.md, "Built-in modules (preload)" and "Signals").
import * as nodeModule from "node:module";
import { apply, deniedFunction, lock } from "./primordials.mjs";

/**
 * Replaces each door with a non-configurable function that throws ERR_ACCESS_DENIED. Signals:
 * Node's permission model lets a process signal any process of its uid (the harness, sibling
 * sandboxes); process.kill, process._kill and process._debugProcess reach kill(2).
 * @param {(id: string) => any} realGetBuiltinModule the unwrapped `process.getBuiltinModule`
 *   (builtinBarrier.mjs), to reach node:crypto.
 */
export function lockProcessDoors(realGetBuiltinModule) {
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
  const crypto = apply(realGetBuiltinModule, process, ["node:crypto"]);
  if (typeof crypto.setEngine === "function")
    lock(crypto, "setEngine", { writable: false, value: deniedFunction("crypto.setEngine", "Addon") });
  nodeModule.syncBuiltinESMExports();
}
