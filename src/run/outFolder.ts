import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import { modelIdentity } from "../models/identity.ts";
import { effectiveSampling } from "../models/providerModel.ts";
import { isLocalModel, resolveProviderModel } from "../models/resolve.ts";
import { modelSettings } from "../models/settings.ts";
import { readFolder } from "../results/folder.ts";
import { describeModes } from "../results/merge.ts";
import type { InstanceResult, RunManifest } from "../results/types.ts";
import { type RunOptions, UsageError } from "../runOptions.ts";
import { worldIdentity } from "../world/paths.ts";

/**
 * The output folder (`--out`) as one set of results (docs/RUNNING.md "The output folder"): refused when it holds
 * results of another model or other settings.
 */

/**
 * What makes the results in one folder one set (docs/RUNNING.md "The output folder"): the model's identity, the run
 * seed, the sampling settings sent, the prompt modes and the world. Which tasks, epochs and shards a
 * run selects is not part of it: a run adds them to the set.
 */
export type FolderSettings = {
  model: string;
  seed: number;
  sampling: string;
  modes: string;
  world: string;
};

/** The settings a run with `options` would record (the world from world.json, or the fork block). */
export function runFolderSettings(options: RunOptions): FolderSettings {
  let sampling = "none";
  if (!isLocalModel(options.model)) {
    const resolved = resolveProviderModel(options.model, options);
    sampling = JSON.stringify(effectiveSampling(resolved, modelSettings(options).sampling));
  }
  return {
    model: modelIdentity(options.model, options.name),
    seed: options.seed,
    sampling,
    modes: describeModes(options.modes),
    world: options.forkUrl ? `fork at block ${options.forkBlock}` : `world ${worldIdentity().worldId}`,
  };
}

/** The settings recorded in an existing results.json manifest. */
export function manifestFolderSettings(m: RunManifest): FolderSettings {
  return {
    model: m.model,
    seed: m.seed,
    sampling: m.sampling ? JSON.stringify(m.sampling) : "none",
    modes: describeModes(m.modes),
    world: m.fork ? `fork at block ${m.fork.blockNumber}` : `world ${m.worldId}`,
  };
}

/** The first complete line of `instances.jsonl` (results of a run that never wrote results.json). */
function firstInstance(file: string): InstanceResult | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(1 << 20);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const line = buffer.subarray(0, n).toString("utf8").split("\n")[0];
    return line ? (JSON.parse(line) as InstanceResult) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses a run into a folder that holds results of another model or other settings, naming each
 * difference and how many results are there (one line): results of two settings in one results.json
 * would be summed as one run. `--fresh` does not lift it: it runs the selected instances again and
 * replaces only their results (docs/RUNNING.md "The output folder"), so it never discards another
 * run's. An empty folder is never refused. A `--fork-block latest` run into a fork folder is refused
 * too (its block is known only once resolved): pin the folder's `--fork-block`.
 * @throws {UsageError} `--out DIR holds N result(s) of another run (seed 1 there, 2 here): use another
 *   --out, or delete DIR first to discard them`.
 */
export function checkFolderSettings(dir: string, options: RunOptions): void {
  let recorded: Partial<FolderSettings> | undefined;
  try {
    const results = JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8")) as {
      manifest?: RunManifest;
    };
    if (results.manifest) recorded = manifestFolderSettings(results.manifest);
  } catch {
    // no results.json (yet): a run that died before writing one left its instances
  }
  if (!recorded) {
    const first = firstInstance(path.join(dir, "instances.jsonl"));
    if (first) recorded = { model: first.model, seed: first.seed };
  }
  if (!recorded) return;
  const here = runFolderSettings(options);
  const differences = (Object.keys(here) as (keyof FolderSettings)[])
    .filter((field) => recorded[field] !== undefined && String(recorded[field]) !== String(here[field]))
    .map((field) => `${field} ${recorded[field]} there, ${here[field]} here`);
  if (differences.length > 0)
    throw new UsageError(
      `--out ${dir} holds ${readFolder(dir).length} result(s) of another run (${differences.join("; ")}): use another --out, or delete ${dir} first to discard them${options.fresh ? " (--fresh replaces only the selected instances of the same settings)" : ""}`,
    );
}
