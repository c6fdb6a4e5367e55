import type { RunOptions } from "../runOptions.ts";
import { runSplit } from "../runOptions.ts";
import type { InstanceResult, RunManifest, RunSelection } from "./types.ts";

/** The `--split` that covers exactly the sets and splits of `instances` (undefined when there are none). */
export function splitCovering(instances: readonly InstanceResult[]): RunManifest["split"] | undefined {
  const hard = instances.some((i) => i.set === "hard");
  const paper = instances.filter((i) => i.set !== "hard");
  const atomic = paper.some((i) => i.split === "atomic");
  const composite = paper.some((i) => i.split === "composite");
  if (hard) return atomic || composite ? "all" : "hard";
  if (atomic && composite) return "paper";
  return atomic ? "atomic" : composite ? "composite" : undefined;
}

/**
 * The manifest of a folder's results.json (docs/RUNNING.md "The output folder"): the run's manifest with `split` and
 * `epochs` covering every instance of the folder, and `selection` recording what this run selected
 * (`--split` resolved, `--tasks`, `--epochs`, `--shard`) and what became of it.
 */
export function folderManifest(
  manifest: RunManifest,
  instances: readonly InstanceResult[],
  options: Pick<RunOptions, "split" | "tasks" | "epochs" | "shard">,
  counts: Omit<RunSelection, "split" | "tasks" | "epochs" | "shard">,
): RunManifest {
  return {
    ...manifest,
    split: splitCovering(instances) ?? manifest.split,
    epochs: Math.max(options.epochs, ...instances.map((i) => i.epoch + 1)),
    selection: {
      split: runSplit(options),
      tasks: options.tasks,
      epochs: options.epochs,
      ...(options.shard ? { shard: options.shard } : {}),
      ...counts,
    },
  };
}
