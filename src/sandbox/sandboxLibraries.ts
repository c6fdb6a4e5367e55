import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SandboxError } from "../errors.ts";

/** The packages a model's module may import (docs/ARCHITECTURE.md "The attempt's contract"); they are bundled for the sandbox (libraryBundle.ts). */
export const sandboxImportablePackages = ["ethers", "viem"] as const;

/** Where the project's packages live. */
export type SandboxLibraries = {
  /** Absolute path of the project (the folder whose `node_modules` holds ethers and viem). */
  projectRoot: string;
};

let cached: SandboxLibraries | undefined;

/**
 * Finds the project whose `node_modules` holds ethers and viem, searching upwards from this file.
 * The child reads none of it: the packages reach it as a bundle staged in the temp folder
 * (stage.ts). Computed once per process.
 *
 * @throws {SandboxError} when ethers or viem is not installed next to this file.
 */
export function sandboxLibraries(): SandboxLibraries {
  if (cached) return cached;
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (
      sandboxImportablePackages.every((name) =>
        fs.existsSync(path.join(dir, "node_modules", name, "package.json")),
      )
    ) {
      cached = { projectRoot: dir };
      return cached;
    }
    if (path.dirname(dir) === dir) break;
  }
  throw new SandboxError("Cannot find node_modules/ethers and node_modules/viem above the sandbox module.", {
    details: `Searched upwards from ${here}. Run \`npm install\` in the project.`,
  });
}
