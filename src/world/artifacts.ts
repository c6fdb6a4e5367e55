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

/**
 * Loads the artifact a catalogue entry names (src/world/catalogue.ts `artifact`): an own contract
 * from `dir` (`<name>.json`), or `@uniswap/<package>/<Contract>` from that npm package's build.
 *
 * @param dir directory of the own artifacts; default {@link ARTIFACTS_DIR}.
 * @throws {ChainError} when the artifact does not exist (build the world: `npm run build:world`).
 */
export function loadArtifact(ref: string, dir: string = ARTIFACTS_DIR): Artifact {
  const npm = /^(@uniswap\/[^/]+)\/([A-Za-z0-9_]+)$/.exec(ref);
  try {
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
