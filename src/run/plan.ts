import { didYouMean } from "../didYouMean.ts";
import { type RunOptions, runSplit, UsageError } from "../runOptions.ts";
import type { TaskEntry } from "../tasks/files.ts";
import { splitCovers } from "../tasks/select.ts";
import type { Split } from "../tasks/types.ts";

/**
 * The task folders `--split` (default: see runSplit) and `--tasks` name, checked from the index alone (src/tasks/files.ts), so
 * the questbench process refuses a bad selection before Vitest and Anvil start without loading the
 * validators (this module must not import src/tasks/load.ts). The run's worker selects again from
 * the loaded tasks (selectTasks), which also refuses a broken spec, an impossible `--sample` or
 * `--nl-level`.
 * @throws {UsageError} for an unknown `--tasks` id (with the closest one) or a `--split` no task has.
 */
export function indexedSelection(index: readonly TaskEntry[], options: Pick<RunOptions, "split" | "tasks">) {
  const known = index.map((e) => e.id);
  const unknown = options.tasks.filter((id) => !known.includes(id));
  if (unknown.length > 0)
    throw new UsageError(`unknown task id(s): ${unknown.join(", ")}${didYouMean(unknown[0]!, known)}`);
  const split = runSplit(options);
  const selected = index.filter(
    (e) =>
      splitCovers(split, { split: e.split as Split, set: e.set }) &&
      (options.tasks.length === 0 || options.tasks.includes(e.id)),
  );
  if (selected.length === 0) throw new UsageError(`no task matches --split ${split}`);
  return selected;
}

/**
 * At most how many instances a run plans (`--sample`, `--epochs`, `--shard` applied to the indexed
 * selection): the global setup boots no more Anvil instances than that.
 */
export function instancesAtMost(
  selected: readonly TaskEntry[],
  options: Pick<RunOptions, "epochs" | "shard" | "modes">,
): number {
  const tasks = Math.min(selected.length, options.modes?.sample ?? Number.POSITIVE_INFINITY);
  const instances = tasks * options.epochs;
  return options.shard ? Math.ceil(instances / options.shard.count) : instances;
}
