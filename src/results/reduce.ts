import { passAtK, passHatK, sampleSd } from "./stats.ts";
import type { HardSummary, InstanceResult, ResultSet, SplitSummary } from "./types.ts";

/**
 * The named reducers every score of the project goes through (end-of-run table, results.json
 * `summary`, leaderboard.md, report.html): instances → per task over its epochs/seeds → per split →
 * per model. Split scores are sums of per-task means (max 100 per task), so `--epochs 3` and three
 * merged seeds score on the same scale as one epoch (paper §3.7, Table 1).
 */

/** Maximum score of one instance, and so of one task's mean. */
export const INSTANCE_MAX = 100;

/**
 * An instance's task set: `paper` unless it says `hard` or `custom` (a task pack's; results written
 * before the hard split existed carry none).
 */
export const setOf = (i: Pick<InstanceResult, "set">): ResultSet => i.set ?? "paper";

/** An instance the provider never answered (after retries): it has no score, not a 0. */
export const isProviderError = (i: InstanceResult) => i.failure?.class === "provider_error";

/** One task's instances reduced over its epochs (and merged seeds). */
export type TaskScore = {
  taskId: string;
  split: InstanceResult["split"];
  set: ResultSet;
  /** Instances of the task (attempts: n of pass@k). */
  n: number;
  /** Instances that passed (score ≥ 60; c of pass@k). */
  passed: number;
  /** Mean score over the instances, 0–100. */
  mean: number;
};

/**
 * Which score of an instance a reducer reads: ours (`score`, `passed`) by default; `--scoring paper`'s
 * (`paperScoring`) for the paper-scoring totals. An instance it gives nothing for is left out.
 */
export type Measure = (i: InstanceResult) => { score: number; passed: boolean } | undefined;

/** Our scoring: every instance's `score` and `passed`. */
export const OUR_SCORING: Measure = (i) => i;

/** `--scoring paper`: the paper's score of the instances that have one. */
export const PAPER_SCORING: Measure = (i) => i.paperScoring;

/**
 * Reducer 1, per task: mean score and passes over each task's scored instances (provider errors
 * left out: no score), read through `measure` (ours by default). Tasks in first-seen order.
 */
export function taskScores(
  instances: readonly InstanceResult[],
  measure: Measure = OUR_SCORING,
): TaskScore[] {
  const byTask = new Map<string, { i: InstanceResult; m: { score: number; passed: boolean } }[]>();
  for (const i of instances) {
    if (isProviderError(i)) continue;
    const m = measure(i);
    if (!m) continue;
    const key = `${setOf(i)}/${i.split}/${i.taskId}`;
    byTask.set(key, [...(byTask.get(key) ?? []), { i, m }]);
  }
  return [...byTask.values()].map((xs) => ({
    taskId: xs[0]!.i.taskId,
    split: xs[0]!.i.split,
    set: setOf(xs[0]!.i),
    n: xs.length,
    passed: xs.filter((x) => x.m.passed).length,
    mean: xs.reduce((s, x) => s + x.m.score, 0) / xs.length,
  }));
}

const round2 = (x: number) => Math.round(x * 100) / 100;

const sumOf = (xs: readonly TaskScore[]): SplitSummary => ({
  score: round2(xs.reduce((s, t) => s + t.mean, 0)),
  max: xs.length * INSTANCE_MAX,
  passed: xs.reduce((s, t) => s + t.passed, 0),
  count: xs.reduce((s, t) => s + t.n, 0),
  tasks: xs.length,
});

/** One task set's atomic, composite and total sums. */
const setScores = (xs: readonly TaskScore[]): HardSummary => ({
  atomic: sumOf(xs.filter((t) => t.split === "atomic")),
  composite: sumOf(xs.filter((t) => t.split === "composite")),
  total: sumOf(xs),
});

/**
 * Reducer 2, per split: score = Σ per-task means (2 decimals), max = tasks × 100, `avg` = score /
 * tasks (null when no task); passed and count are instances. `atomic`, `composite` and `total` (the
 * paper total, max 10,700) cover the paper's tasks only; the hard split and the task packs' tasks
 * are reduced apart into `hard` and `custom`, each with its own atomic, composite and total, and
 * never added to the paper's. `custom` is present only when a pack's task is among `tasks`.
 */
export function splitScores(
  tasks: readonly TaskScore[],
): Record<"atomic" | "composite" | "total", SplitSummary> & { hard: HardSummary; custom?: HardSummary } {
  const custom = tasks.filter((t) => t.set === "custom");
  return {
    ...setScores(tasks.filter((t) => t.set === "paper")),
    hard: setScores(tasks.filter((t) => t.set === "hard")),
    ...(custom.length > 0 ? { custom: setScores(custom) } : {}),
  };
}

/** A split's average per task, 0–100 (null when the split ran no task). */
export const splitAverage = (s: SplitSummary): number | null => (s.tasks === 0 ? null : s.score / s.tasks);

/**
 * Reducer 3, per model: the mean over tasks of the unbiased pass@k (0–1; Chen et al., 2021).
 * @throws {RangeError} when a task has fewer than k attempts (use {@link commonK}).
 */
export function meanPassAtK(tasks: readonly TaskScore[], k: number): number {
  if (tasks.length === 0) return 0;
  return tasks.reduce((s, t) => s + passAtK(t.n, t.passed, k), 0) / tasks.length;
}

/**
 * Reducer 3, per model: the mean over tasks of the unbiased pass^k (0–1; every one of k attempts
 * passes, Yao et al., 2024), beside {@link meanPassAtK}.
 * @throws {RangeError} when a task has fewer than k attempts (use {@link commonK}).
 */
export function meanPassHatK(tasks: readonly TaskScore[], k: number): number {
  if (tasks.length === 0) return 0;
  return tasks.reduce((s, t) => s + passHatK(t.n, t.passed, k), 0) / tasks.length;
}

/** The largest k every task has attempts for (1 when there is no task). */
export function commonK(tasks: readonly TaskScore[]): number {
  return tasks.length === 0 ? 1 : Math.min(...tasks.map((t) => t.n));
}

/**
 * Re-run noise, apart from the between-task interval (docs/SCORING.md "Statistics"): the sample SD
 * (n − 1 divisor, 0–100 scale) over the runs of `instances` (each seed × epoch one run) of each run's
 * average score per task. Null unless every task has every run and there are at least 2 runs: an
 * incomplete run's average would measure which tasks it has, not noise.
 */
export function rerunSd(instances: readonly InstanceResult[], measure: Measure = OUR_SCORING): number | null {
  const runs = new Map<string, Map<string, number>>();
  const tasks = new Set<string>();
  for (const i of instances) {
    if (isProviderError(i)) continue;
    const m = measure(i);
    if (!m) continue;
    const task = `${setOf(i)}/${i.split}/${i.taskId}`;
    const run = `${i.seed}/${i.epoch}`;
    tasks.add(task);
    const scores = runs.get(run) ?? new Map<string, number>();
    scores.set(task, m.score);
    runs.set(run, scores);
  }
  if (runs.size < 2 || [...runs.values()].some((r) => r.size !== tasks.size)) return null;
  return sampleSd([...runs.values()].map((r) => [...r.values()].reduce((s, x) => s + x, 0) / r.size));
}
