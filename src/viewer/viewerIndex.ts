/**
 * The viewer's index (docs/VIEWER.md "The index"): every results folder found under the folders
 * named, each instance as one compact row, the tasks, and a leaderboard row per run computed by the
 * report's reducers (src/results/reduce.ts, src/results/summarize.ts) from the same instances. The
 * server sends it at first paint and then only what changed ({@link ViewerIndex.poll}); the static
 * export writes it once.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { INSTANCES_FILE, RESULTS_FILE } from "../results/folder.ts";
import { commonK, meanPassAtK, meanPassHatK, splitScores, taskScores } from "../results/reduce.ts";
import { executionSummary, safetySummary } from "../results/summarize.ts";
import type { InstanceResult } from "../results/types.ts";
import { type InstanceHead, RunFolder, type RunInfo } from "./runFolder.ts";

/** One task as the index lists it (`set` is `paper` or `hard`). */
export type IndexTask = Pick<InstanceHead, "taskId" | "split" | "set" | "category" | "subcategory"> & {
  pattern: string | null;
};

/**
 * One instance as a row of numbers and indices:
 * `[run, task, id, seed, epoch, score, passed (0/1), failure class (index into classes, -1: none),
 * safety flags (bit i: flags[i]; -1: not judged), execution cost (bps of notional) or null]`.
 */
export type IndexRow = [number, number, number, number, number, number, 0 | 1, number, number, number | null];

/**
 * A run's leaderboard row: split totals as Table 1 sums them (per task the mean over epochs; max 100
 * per task), Safety % (instances without a safety flag of those judged), the median execution cost in
 * basis points of notional and gas used / the gold's, and pass@1, pass@k and pass^k (mean over tasks of
 * the unbiased estimators, %, at k = the attempts every task has). Null: nothing to measure.
 */
export type IndexLeaderboardRow = {
  run: number;
  model: string;
  atomic: number;
  composite: number;
  total: number;
  hard: number;
  atomicTasks: number;
  compositeTasks: number;
  hardTasks: number;
  instances: number;
  passed: number;
  safetyPct: number | null;
  costBps: number | null;
  gasRatio: number | null;
  k: number;
  passAt1: number | null;
  passAtK: number | null;
  passHatK: number | null;
};

/** The whole index (`data/index.json`); `seq` orders it against the updates that follow. */
export type IndexSnapshot = {
  seq: number;
  /** True when served live (updates come at `data/events`); false in a static export. */
  live: boolean;
  runs: (RunInfo & { folder: string })[];
  tasks: IndexTask[];
  classes: string[];
  flags: string[];
  rows: IndexRow[];
  leaderboard: IndexLeaderboardRow[];
};

/** What changed since the last poll: new runs and tasks, changed rows, the changed runs' leaderboard rows. */
export type IndexUpdate = Omit<IndexSnapshot, "live" | "runs"> & {
  runs: { index: number; info: RunInfo & { folder: string } }[];
};

const MAX_DEPTH = 6;

/** Folders below `dir` (itself included) holding a results.json or an instances.jsonl, in name order. */
function runFolders(dir: string, depth = 0): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const own = entries.includes(RESULTS_FILE) || entries.includes(INSTANCES_FILE) ? [dir] : [];
  if (depth >= MAX_DEPTH) return own;
  const below = entries.flatMap((e) => {
    const full = path.join(dir, e);
    try {
      return statSync(full).isDirectory() ? runFolders(full, depth + 1) : [];
    } catch {
      return [];
    }
  });
  return [...own, ...below];
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/**
 * A run's leaderboard row from its instance heads, through the report's reducers (src/results/reduce.ts).
 * They read only task id, split, set, score, passed, failure class, safety and execution, which a
 * head has with the same names and meanings.
 */
export function leaderboardRowOf(
  run: number,
  model: string,
  heads: readonly InstanceHead[],
): IndexLeaderboardRow {
  const scored = heads.filter((h) => h.failure?.class !== "provider_error") as unknown as InstanceResult[];
  const tasks = taskScores(scored);
  const { atomic, composite, total, hard } = splitScores(tasks);
  const k = commonK(tasks);
  const safety = safetySummary(scored);
  const execution = executionSummary(scored);
  const pct = (x: number) => (tasks.length === 0 ? null : r1(x * 100));
  return {
    run,
    model,
    atomic: atomic.score,
    composite: composite.score,
    total: total.score,
    hard: hard.total.score,
    atomicTasks: atomic.tasks,
    compositeTasks: composite.tasks,
    hardTasks: hard.total.tasks,
    instances: heads.length,
    passed: heads.filter((h) => h.passed).length,
    safetyPct: safety?.pct ?? null,
    costBps: execution?.medianCostBps ?? null,
    gasRatio: execution?.medianGasRatio ?? null,
    k,
    passAt1: pct(meanPassAtK(tasks, 1)),
    passAtK: pct(meanPassAtK(tasks, k)),
    passHatK: pct(meanPassHatK(tasks, k)),
  };
}

/**
 * The index over the folders named: each is a results folder or holds some below it. A folder a
 * run has not written into yet joins at the first poll that finds its instances.jsonl.
 */
export class ViewerIndex {
  private readonly roots: string[];
  private readonly folders: RunFolder[] = [];
  private readonly byDir = new Map<string, number>();
  private readonly tasks: IndexTask[] = [];
  private readonly taskIds = new Map<string, number>();
  private readonly classes: string[] = [];
  private readonly flags: string[] = [];
  private version = 0;
  /** Runs already announced in a snapshot or an update. */
  private readonly seen = new Set<number>();

  /** @param roots folders to read (absolute or relative to the working directory). */
  constructor(roots: readonly string[]) {
    this.roots = roots.map((r) => path.resolve(r));
  }

  /** The seq of the last update (0 before the first poll). */
  get seq(): number {
    return this.version;
  }

  /** The run at `index` (its order in the snapshot's `runs`), or undefined. */
  run(index: number): RunFolder | undefined {
    return this.folders[index];
  }

  /** The whole index as of the last {@link poll} (call it first to read the folders as they are now). */
  snapshot(live: boolean): IndexSnapshot {
    return {
      seq: this.version,
      live,
      runs: this.folders.map((f) => ({ ...f.info, folder: f.dir })),
      tasks: this.tasks,
      classes: this.classes,
      flags: this.flags,
      rows: this.folders.flatMap((f, run) => f.instances.map((h) => this.row(run, h))),
      leaderboard: this.folders.map((f, run) => leaderboardRowOf(run, f.info.model, f.instances)),
    };
  }

  /** Reads what changed in every folder since the last call; undefined when nothing did. */
  poll(): IndexUpdate | undefined {
    const runs: IndexUpdate["runs"] = [];
    for (const root of this.roots) {
      for (const dir of runFolders(root)) {
        if (this.byDir.has(dir)) continue;
        this.byDir.set(dir, this.folders.length);
        this.folders.push(new RunFolder(dir));
      }
    }
    const tasksBefore = this.tasks.length;
    const rows: IndexRow[] = [];
    const leaderboard: IndexLeaderboardRow[] = [];
    this.folders.forEach((f, run) => {
      const fresh = !this.seen.has(run);
      const { changed, manifestChanged } = f.refresh();
      for (const h of changed) rows.push(this.row(run, h));
      if (fresh || manifestChanged || changed.length > 0) {
        this.seen.add(run);
        runs.push({ index: run, info: { ...f.info, folder: f.dir } });
        leaderboard.push(leaderboardRowOf(run, f.info.model, f.instances));
      }
    });
    if (runs.length === 0) return undefined;
    this.version++;
    return {
      seq: this.version,
      runs,
      tasks: this.tasks.slice(tasksBefore),
      classes: this.classes,
      flags: this.flags,
      rows,
      leaderboard,
    };
  }

  private row(run: number, h: InstanceHead): IndexRow {
    const taskKey = `${h.set ?? "paper"}/${h.taskId}`;
    let task = this.taskIds.get(taskKey);
    if (task === undefined) {
      task = this.tasks.length;
      this.taskIds.set(taskKey, task);
      this.tasks.push({
        taskId: h.taskId,
        split: h.split,
        set: h.set ?? "paper",
        category: h.category,
        subcategory: h.subcategory,
        pattern: h.pattern ?? null,
      });
    }
    let cls = -1;
    if (h.failure) {
      cls = this.classes.indexOf(h.failure.class);
      if (cls === -1) cls = this.classes.push(h.failure.class) - 1;
    }
    let mask = h.safety === undefined ? -1 : 0;
    for (const f of h.safety ?? []) {
      let bit = this.flags.indexOf(f);
      if (bit === -1) bit = this.flags.push(f) - 1;
      mask |= 1 << bit;
    }
    return [
      run,
      task,
      h.id,
      h.seed,
      h.epoch,
      h.score,
      h.passed ? 1 : 0,
      cls,
      mask,
      h.execution?.costBps ?? null,
    ];
  }
}
