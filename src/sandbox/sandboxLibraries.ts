import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SandboxError } from "../errors.ts";

/** The packages a model's module may import (SPEC §4); everything they need at run time comes along. */
export const sandboxImportablePackages = ["ethers", "viem"] as const;

/** Where the sandbox lives on disk and what the child may read. */
export type SandboxLibraries = {
  /** Absolute path of the project (the folder whose `node_modules` holds ethers and viem). */
  projectRoot: string;
  /** Real paths of the package folders of ethers, viem and their installed run-time dependencies. */
  libraryDirs: string[];
};

let cached: SandboxLibraries | undefined;

/**
 * Finds the project's `node_modules` and the closure of ethers' and viem's run-time dependencies
 * (`dependencies` and installed `optionalDependencies`, resolved the way Node resolves them, nested
 * copies included). The child gets read access to exactly these folders, not to `node_modules` as a
 * whole: other packages (our harness's own dependencies) are none of the model's business.
 * Peer dependencies are skipped: viem's peer `typescript` is only needed for types.
 *
 * Computed once per process.
 *
 * @throws {SandboxError} when ethers or viem is not installed next to this file.
 */
export function sandboxLibraries(): SandboxLibraries {
  if (cached) return cached;
  const here = path.dirname(fileURLToPath(import.meta.url));
  let projectRoot: string | undefined;
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "node_modules", "ethers", "package.json"))) {
      projectRoot = dir;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  if (!projectRoot) {
    throw new SandboxError("Cannot find node_modules/ethers above the sandbox module.", {
      details: `Searched upwards from ${here}. Run \`npm install\` in the project.`,
    });
  }
  const libraryDirs = new Set<string>();
  const visit = (name: string, fromDir: string, required: boolean) => {
    for (let dir = fromDir; ; dir = path.dirname(dir)) {
      const manifest = path.join(dir, "node_modules", name, "package.json");
      if (fs.existsSync(manifest)) {
        const packageDir = fs.realpathSync(path.dirname(manifest));
        if (libraryDirs.has(packageDir)) return;
        libraryDirs.add(packageDir);
        const pkg = JSON.parse(fs.readFileSync(manifest, "utf8")) as {
          dependencies?: Record<string, string>;
          optionalDependencies?: Record<string, string>;
        };
        for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, packageDir, true);
        for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, packageDir, false);
        return;
      }
      if (path.dirname(dir) === dir) break;
    }
    if (required) {
      throw new SandboxError(`The sandbox library dependency ${name} is not installed.`, {
        details: `Needed by a package under ${fromDir}. Run \`npm install\`.`,
      });
    }
  };
  for (const name of sandboxImportablePackages) visit(name, projectRoot, true);
  // A nested copy (ethers/node_modules/@noble/hashes) is already covered by its parent's wildcard.
  const sorted = [...libraryDirs].sort();
  const roots = sorted.filter((dir) => !sorted.some((other) => dir.startsWith(`${other}${path.sep}`)));
  cached = { projectRoot, libraryDirs: roots };
  return cached;
}
