import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { RunOptions } from "../runOptions.ts";
import { PROJECT_ROOT } from "../tasks/load.ts";
import { anvilBinaryPath } from "../world/anvil.ts";
import type { RunManifest } from "./types.ts";

function gitCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "ignore"],
    })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

function anvilVersion(): string {
  try {
    return execFileSync(anvilBinaryPath(), ["--version"]).toString().split("\n")[0]!.trim();
  } catch {
    return "unknown";
  }
}

/** The run manifest of results.json: what a reader needs to reproduce or compare the run. */
export function buildManifest(
  options: RunOptions,
  taskFiles: Record<string, string>,
  world: { worldId: string; chainId: number },
): RunManifest {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  return {
    packageVersion: pkg.version,
    gitCommit: gitCommit(),
    seed: options.seed,
    epochs: options.epochs,
    model: options.model,
    split: options.split,
    taskFiles,
    anvilVersion: anvilVersion(),
    worldId: world.worldId,
    chainId: world.chainId,
    nodeVersion: process.version,
    startedAt: new Date().toISOString(),
  };
}
