import { didYouMean } from "../didYouMean.ts";
import { UsageError } from "../runOptions.ts";
import type { BrokenTask, LoadedTask } from "./load.ts";

/**
 * The tasks a run covers: `--split` (atomic, composite or all) and `--tasks id,id`.
 * @throws {TaskSpecError} when the run would include a task whose file is broken (`tasks.broken`,
 *   from loadTasks): named by `--tasks`, or any broken task when `--tasks` is not given.
 * @throws {UsageError} when `--tasks` names an id no task spec has.
 */
export function selectTasks(
  tasks: LoadedTask[] & { broken?: BrokenTask[] },
  options: { split: "atomic" | "composite" | "all"; tasks: string[] },
): LoadedTask[] {
  for (const b of tasks.broken ?? [])
    if (
      options.tasks.length === 0
        ? options.split === "all" || b.split === options.split
        : options.tasks.includes(b.id)
    )
      throw b.error;
  const known = new Set([...tasks.map((t) => t.spec.id), ...(tasks.broken ?? []).map((b) => b.id)]);
  const unknown = options.tasks.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new UsageError(`unknown task id(s): ${unknown.join(", ")}${didYouMean(unknown[0]!, [...known])}`);
  return tasks.filter(
    (t) =>
      (options.split === "all" || t.spec.split === options.split) &&
      (options.tasks.length === 0 || options.tasks.includes(t.spec.id)),
  );
}

/** One instance to run: a task and an epoch. */
export type PlannedInstance = { task: LoadedTask; epoch: number };

/**
 * The instances of a run (every selected task × epoch, in a stable order) and, with `--shard i/n`,
 * the i-th of n round-robin parts: shards are disjoint, cover the run, and merge back into it.
 */
export function planInstances(
  tasks: LoadedTask[],
  epochs: number,
  shard?: { index: number; count: number },
): PlannedInstance[] {
  const all = tasks.flatMap((task) => Array.from({ length: epochs }, (_, epoch) => ({ task, epoch })));
  return shard ? all.filter((_, k) => k % shard.count === shard.index - 1) : all;
}
