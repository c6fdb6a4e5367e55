import seedrandom from "seedrandom";
import { didYouMean } from "../didYouMean.ts";
import { UsageError } from "../runOptions.ts";
import type { BrokenTask, LoadedTask } from "./load.ts";
import { type NlLevel, templatesAt } from "./templates.ts";
import type { SplitSelection, TaskSpec } from "./types.ts";

/**
 * Whether `--split <selection>` covers a task: `atomic`/`composite` are the paper's splits, `paper`
 * both of them (the 107 tasks), `hard` the hard split (atomic and composite), `all` everything.
 */
export function splitCovers(selection: SplitSelection, spec: Pick<TaskSpec, "split" | "set">): boolean {
  const set = spec.set ?? "paper";
  if (selection === "all") return true;
  if (selection === "paper" || selection === "hard") return set === selection;
  return set === "paper" && spec.split === selection;
}

/**
 * The tasks a run covers: `--split` (atomic, composite or all) and `--tasks id,id`.
 * @throws {TaskSpecError} when the run would include a task whose file is broken (`tasks.broken`,
 *   from loadTasks): named by `--tasks`, or any broken task when `--tasks` is not given.
 * @throws {UsageError} when `--tasks` names an id no task spec has.
 */
export function selectTasks(
  tasks: LoadedTask[] & { broken?: BrokenTask[] },
  options: {
    split: SplitSelection;
    tasks: string[];
    seed?: number;
    modes?: { sample?: number | undefined; nlLevel?: NlLevel | undefined } | undefined;
  },
): LoadedTask[] {
  for (const b of tasks.broken ?? [])
    if (
      options.tasks.length === 0
        ? options.split === "all" ||
          b.split === options.split ||
          (options.split === "paper" && b.split !== "hard")
        : options.tasks.includes(b.id)
    )
      throw b.error;
  const known = new Set([...tasks.map((t) => t.spec.id), ...(tasks.broken ?? []).map((b) => b.id)]);
  const unknown = options.tasks.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new UsageError(`unknown task id(s): ${unknown.join(", ")}${didYouMean(unknown[0]!, [...known])}`);
  const selected = tasks.filter(
    (t) =>
      splitCovers(options.split, t.spec) && (options.tasks.length === 0 || options.tasks.includes(t.spec.id)),
  );
  const level = options.modes?.nlLevel;
  if (level !== undefined && level !== "precise") {
    // A task without the level is refused, never silently run at another level.
    const lacking = selected.filter((t) => templatesAt(t.spec, level) === undefined).map((t) => t.spec.id);
    if (lacking.length > 0)
      throw new UsageError(
        `--nl-level ${level}: ${lacking.length} selected task(s) have no ${level} templates, e.g. ${lacking.slice(0, 3).join(", ")}`,
      );
  }
  const n = options.modes?.sample;
  return n === undefined ? selected : sampleTasks(selected, n, options.seed ?? 1);
}

/**
 * `--sample N` (the paper implementation's --max-questions): N tasks drawn with a seeded RNG, each
 * category (`spec.category`: basic_transactions, defi_operations, advanced_features, composite)
 * getting its share by largest remainder, then tasks drawn without replacement inside it. The same
 * seed and task bank give the same sample; order stays the bank's.
 * @throws {UsageError} when N exceeds the tasks selected.
 */
export function sampleTasks(tasks: readonly LoadedTask[], n: number, seed: number): LoadedTask[] {
  if (n > tasks.length) throw new UsageError(`--sample ${n} exceeds the ${tasks.length} task(s) selected`);
  const byCategory = new Map<string, LoadedTask[]>();
  for (const t of tasks) byCategory.set(t.spec.category, [...(byCategory.get(t.spec.category) ?? []), t]);
  const quotas = [...byCategory].map(([category, xs]) => {
    const exact = (xs.length * n) / tasks.length;
    return { category, xs, take: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let left = n - quotas.reduce((s, q) => s + q.take, 0);
  for (const q of [...quotas].sort((a, b) => b.rest - a.rest || a.category.localeCompare(b.category))) {
    if (left === 0) break;
    q.take++;
    left--;
  }
  const rng = seedrandom(`questbench-sample/${seed}`);
  const chosen = new Set<string>();
  for (const q of quotas) {
    const pool = [...q.xs];
    for (let k = 0; k < q.take; k++) chosen.add(pool.splice(Math.floor(rng() * pool.length), 1)[0]!.spec.id);
  }
  return tasks.filter((t) => chosen.has(t.spec.id));
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
