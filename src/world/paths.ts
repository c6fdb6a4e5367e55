import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ChainError } from "../errors.ts";

// Where the world's files are, and which world they hold, without the catalogue (and viem): what the
// questbench process needs to boot Anvil and write the manifest. world.ts reads the whole address book.

const worldDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/world");

/** Absolute path of the Anvil state file to boot from (`fixtures/world/state.json`). */
export function worldStatePath(): string {
  return path.join(worldDir, "state.json");
}

/** Absolute path of the address book (`fixtures/world/world.json`), next to the state file. */
export function worldJsonPath(): string {
  return path.join(worldDir, "world.json");
}

/**
 * The world's identity from world.json: `worldId` (`sha256:<hex>` of state.json) and the chain id.
 * @throws {ChainError} when the file is missing or not JSON (build it with `npx tsx fixtures/build-world.ts`).
 */
export function worldIdentity(file: string = worldJsonPath()): { worldId: string; chainId: number } {
  try {
    const { worldId, chainId } = JSON.parse(readFileSync(file, "utf8")) as {
      worldId: string;
      chainId: number;
    };
    return { worldId, chainId };
  } catch (error) {
    throw new ChainError(`Cannot read the world address book ${file}.`, {
      cause: error,
      details: "Build it with `npx tsx fixtures/build-world.ts`.",
    });
  }
}
