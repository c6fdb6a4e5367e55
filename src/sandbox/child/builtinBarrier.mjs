// The built-in modules barrier of the sandboxed child (docs/SECURITY.md, "Built-in modules
// (preload)"): one allowlist (sandboxBuiltins.ts) enforced at every door a module loads through.
import * as nodeModule from "node:module";
import {
  accessDenied,
  apply,
  hasOwn,
  isBuiltin,
  lock,
  objectCreate,
  startsWith,
  stringSlice,
} from "./primordials.mjs";

function builtinName(specifier) {
  return startsWith(specifier, "node:") ? stringSlice(specifier, 5) : specifier;
}

/**
 * Installs the barrier: import (static and dynamic), require and import.meta.resolve all pass one
 * resolve hook, and `process.getBuiltinModule` is wrapped. Model code may name an allowed built-in
 * or an ethers/viem entry, nothing else (no file, data: or package lookups, which would also tell it
 * which host files exist); bundle files may load bundle files; only the runner may import the
 * module. No disk is touched for a refused specifier.
 * @param {{ builtins: string[], entryUrls: Record<string, string>, bundleUrl: string, runnerUrl: string, moduleUrl: string }} allowed
 *   the allowed built-ins (names without `node:`), each bundle entry's specifier, path and URL →
 *   its file URL, the bundle folder's URL (ending in "/"), the runner's URL and the module's.
 * @returns {((id: string) => unknown) | undefined} the real `process.getBuiltinModule`, for the
 *   runner's own use.
 */
export function installBuiltinBarrier({ builtins, entryUrls, bundleUrl, runnerUrl, moduleUrl }) {
  /** A null-prototype set no prototype can extend. */
  const allowedBuiltins = objectCreate(null);
  for (const name of builtins) allowedBuiltins[name] = true;
  const allowedList = builtins.join(", ");
  function builtinDenied(specifier) {
    return accessDenied(
      `Loading the built-in module ${specifier} is not allowed in the benchmark sandbox (allowed: ${allowedList}; packages: ethers, viem).`,
      "BuiltinModule",
      String(specifier),
    );
  }

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
  return realGetBuiltinModule;
}
