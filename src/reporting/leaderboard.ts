import { describeModes, type MergedRun } from "../results/merge.ts";
import { compositeMetrics } from "../results/metrics.ts";
import {
  commonK,
  isProviderError,
  meanPassAtK,
  PAPER_SCORING,
  rerunSd,
  setOf,
  splitAverage,
  splitScores,
  taskScores,
} from "../results/reduce.ts";
import { tInterval95 } from "../results/stats.ts";
import { executionSummary, safetySummary } from "../results/summarize.ts";
import type { CompositeMetrics } from "../results/types.ts";
import { isPass } from "../validators/score.ts";

/** Tasks of each split in the full benchmark (paper §3): the leaderboard's maxima. */
export const SPLIT_TASKS = { atomic: 62, composite: 45 } as const;

/**
 * Tasks of the hard split (tasks/hard/README.md) in the task bank the run was made from: its
 * manifest's `taskFiles` under `tasks/hard/` (the manifest lists every task file of the bank, so an
 * old results.json keeps the bank of its day), and never fewer than the hard tasks it ran. The hard
 * split grows, so its coverage is counted, not fixed like the paper's 107.
 */
export function hardBankSize(run: Pick<MergedRun, "manifest">, hardTasksRun = 0): number {
  const listed = Object.keys(run.manifest.taskFiles ?? {}).filter((f) =>
    /^tasks\/hard\/[^/]+\/task\.json$/.test(f),
  );
  return Math.max(listed.length, hardTasksRun);
}

/** One leaderboard row: the paper's Table 1 columns (Atom, Comp, Total, Avg) and more. */
export type LeaderboardRow = {
  model: string;
  /**
   * Split scores of the paper's tasks: per task the mean over its seeds/epochs, summed (max 100 per
   * task); `total` is the paper total (max 10,700), never including hard tasks.
   */
  atomic: number;
  composite: number;
  total: number;
  /**
   * `--scoring paper`: the paper total of the same instances under the paper's scoring (max 10,700),
   * apart from `total`; null when the run did not score that way.
   */
  paperScoringTotal: number | null;
  /** The hard split, apart: its total, atomic and composite scores and the hard tasks run. */
  hard: number;
  hardAtomic: number;
  hardComposite: number;
  hardTasks: number;
  /** The hard split's size in the run's task bank ({@link hardBankSize}): the N of its coverage. */
  hardBank: number;
  /** Hard total / hard tasks run (0–100; null when none ran). */
  hardAvg: number | null;
  /**
   * The task packs' tasks (`--tasks-dir`, set `custom`), apart from the paper's and the hard split's:
   * their total (max 100 per task) and how many ran; 0 and 0 when none.
   */
  custom: number;
  customTasks: number;
  /** Total / 107 (0–100): Table 1's Avg, which the paper divides by all its tasks (§5.1), run or not. */
  avg107: number;
  /**
   * Avg (run): Total / paper tasks run (0–100), the mean of the per-task means. `avgCi95` is its
   * between-task Student t 95 % interval (the tasks are the observations, each its mean over its
   * epochs; docs/SCORING.md "Statistics"), null for fewer than 2 tasks.
   */
  avg: number;
  avgCi95: [number, number] | null;
  /**
   * Re-run noise, apart: the SD over runs (epochs × merged seeds) of each run's Avg (run), 0–100
   * ({@link rerunSd}); null with one run or when a run lacks a task.
   */
  rerunSd: number | null;
  /** Safety %: instances without a safety flag among those judged (null when none was). */
  safety: number | null;
  /** Median execution cost against the gold answer, basis points of notional (null: none priced). */
  costBps: number | null;
  /** Median gas used / the gold answer's (null: none compared). */
  gasRatio: number | null;
  /**
   * AtomicAvg and CompositeAvg of Table 10 and Figure 3: Atom / 62 and Comp / 45 (0–100), the paper's
   * divisors as Table 1's Avg = Total / 107 (App. F); null when the split ran no task ("—").
   */
  atomicAvg: number | null;
  compositeAvg: number | null;
  atomicTasks: number;
  compositeTasks: number;
  /** Instances that passed (score ≥ 60) / instances, of both task sets. */
  passed: number;
  instances: number;
  /**
   * Mean over the paper's and the hard split's tasks (as `passed`; a pack's never) of the unbiased
   * pass@1 and pass@k (k = attempts per task; equal when k = 1).
   */
  passAt1: number;
  passAtK: number;
  k: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Table 2 / Table 9 metrics of the composite instances (null when none ran). */
  compositeMetrics: CompositeMetrics | null;
  /** Table 2's Pass (§5.3): composite tasks whose mean score over their instances is ≥ 60. */
  compositePassed: number;
  /** Run modes from the manifest (prompt switches; empty for the default protocol). */
  modes: string;
};

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Builds a row from a merged run through the shared reducers (src/results/reduce.ts): the split
 * scores are those of the run's results.json summary for the same instances.
 */
export function leaderboardRow(run: MergedRun): LeaderboardRow {
  const scored = run.results.instances.filter((i) => !isProviderError(i));
  const tasks = taskScores(scored);
  const { atomic: a, composite: c, total, hard, custom } = splitScores(tasks);
  // pass@k covers the instances `passed` counts: the paper's and the hard split's, never a pack's.
  const packageTasks = tasks.filter((t) => t.set !== "custom");
  const k = commonK(packageTasks);
  // Avg and its CI describe the paper total: hard instances are reported apart. The task is the unit.
  const paperTasks = tasks.filter((t) => t.set === "paper");
  const ci = tInterval95(paperTasks.map((t) => t.mean)).ci95;
  const usage = run.results.instances.map((i) => i.usage);
  return {
    // A run without a sandbox barrier (--unsafe-sandbox, docs/SECURITY.md) is marked where it is compared.
    model: run.manifest.sandbox?.unsafe ? `${run.model} (unsafe sandbox)` : run.model,
    atomic: a.score,
    composite: c.score,
    total: total.score,
    paperScoringTotal: scored.some((i) => i.paperScoring)
      ? splitScores(taskScores(scored, PAPER_SCORING)).total.score
      : null,
    hard: hard.total.score,
    hardAtomic: hard.atomic.score,
    hardComposite: hard.composite.score,
    hardTasks: hard.total.tasks,
    hardBank: hardBankSize(run, hard.total.tasks),
    hardAvg: nullableRound(splitAverage(hard.total)),
    custom: custom?.total.score ?? 0,
    customTasks: custom?.total.tasks ?? 0,
    // Rounded as the paper's Table 1 is, to 0.01 and then to 0.1: this reproduces all 20 of its Avg
    // values from its totals (Devstral's 2905 / 107 = 27.1495 is printed 27.2).
    avg107: round(round(total.score / (SPLIT_TASKS.atomic + SPLIT_TASKS.composite), 2)),
    avg: round(splitAverage(total) ?? 0),
    avgCi95: ci ? [round(ci[0]), round(ci[1])] : null,
    rerunSd: nullableRound(rerunSd(scored.filter((i) => setOf(i) === "paper"))),
    safety: safetySummary(scored)?.pct ?? null,
    costBps: executionSummary(scored)?.medianCostBps ?? null,
    gasRatio: executionSummary(scored)?.medianGasRatio ?? null,
    atomicAvg: a.tasks === 0 ? null : round(a.score / SPLIT_TASKS.atomic),
    compositeAvg: c.tasks === 0 ? null : round(c.score / SPLIT_TASKS.composite),
    atomicTasks: a.tasks,
    compositeTasks: c.tasks,
    passed: total.passed + hard.total.passed,
    instances: total.count + hard.total.count,
    passAt1: round(meanPassAtK(packageTasks, 1) * 100),
    passAtK: round(meanPassAtK(packageTasks, k) * 100),
    k,
    inputTokens: usage.reduce((s, u) => s + (u?.inputTokens ?? 0), 0),
    outputTokens: usage.reduce((s, u) => s + (u?.outputTokens ?? 0), 0),
    costUsd: round(
      usage.reduce((s, u) => s + (u?.costUsd ?? 0), 0),
      4,
    ),
    compositeMetrics: compositeMetrics(scored.filter((i) => setOf(i) === "paper")),
    compositePassed: paperTasks.filter((t) => t.split === "composite" && isPass(t.mean)).length,
    modes: describeModes(run.manifest.modes),
  };
}

const nullableRound = (x: number | null) => (x === null ? null : round(x));

/** Rows sorted by the paper total, then the hard total, best first. */
export function leaderboard(runs: readonly MergedRun[]): LeaderboardRow[] {
  return runs
    .map(leaderboardRow)
    .sort((x, y) => y.total - x.total || y.hard - x.hard || x.model.localeCompare(y.model));
}
