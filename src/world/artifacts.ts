import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";
import { ChainError } from "../errors.ts";

const require = createRequire(import.meta.url);

/** `fixtures/artifacts/`: the compiled own contracts (written by `fixtures/build-world.ts`). */
export const ARTIFACTS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/artifacts",
);

/** A compiled contract: creation and runtime bytecode with its ABI. */
export type Artifact = {
  contractName: string;
  sourceName: string;
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
};

function v3Artifact(pkg: string, name: string): { abi: Abi; bytecode: Hex; deployedBytecode: Hex } {
  for (const dir of ["", "lens/"]) {
    try {
      return require(`${pkg}/artifacts/contracts/${dir}${name}.sol/${name}.json`);
    } catch {
      // not in this folder: try the next
    }
  }
  throw new Error(`${name} is not among ${pkg}'s artifacts`);
}

/**
 * Loads the artifact a catalogue entry names (src/world/catalogue.ts `artifact`): an own contract
 * from `dir` (`<name>.json`), or `@uniswap/<package>/<Contract>` from that npm package's build (V2: `build/`;
 * V3: Hardhat's `artifacts/contracts/`).
 *
 * @param dir directory of the own artifacts; default {@link ARTIFACTS_DIR}.
 * @throws {ChainError} when the artifact does not exist (build the world: `npm run build:world`).
 */
export function loadArtifact(ref: string, dir: string = ARTIFACTS_DIR): Artifact {
  const npm = /^(@uniswap\/[^/]+)\/([A-Za-z0-9_]+)$/.exec(ref);
  try {
    if (npm && npm[1]!.startsWith("@uniswap/v3-")) {
      // V3 packages ship Hardhat artifacts (0x-prefixed bytecode) below artifacts/contracts/, the
      // quoters in lens/; none of the contracts we place needs library linking.
      const json = v3Artifact(npm[1]!, npm[2]!);
      return {
        contractName: npm[2]!,
        sourceName: npm[1]!,
        abi: json.abi,
        bytecode: json.bytecode,
        deployedBytecode: json.deployedBytecode,
      };
    }
    if (npm) {
      const json = require(`${npm[1]}/build/${npm[2]}.json`);
      return {
        contractName: npm[2]!,
        sourceName: npm[1]!,
        abi: json.abi,
        bytecode: `0x${json.evm.bytecode.object}`,
        deployedBytecode: `0x${json.evm.deployedBytecode.object}`,
      };
    }
    return JSON.parse(readFileSync(path.join(dir, `${ref}.json`), "utf8")) as Artifact;
  } catch (error) {
    throw new ChainError(`No compiled artifact ${ref}.`, {
      cause: error,
      details: `Looked in ${npm ? `the npm package ${npm[1]}` : dir}; compile with \`npm run build:world\`.`,
    });
  }
}
