import type { MergedRun } from "../results/merge.ts";
import { commonK, isProviderError, meanPassAtK, meanPassHatK, setOf, taskScores } from "../results/reduce.ts";
import { BOOTSTRAP_RESAMPLES, type PairedComparison, pairedComparison } from "../results/stats.ts";
import type { InstanceResult } from "../results/types.ts";
import { leaderboardRow } from "./leaderboard.ts";
import type { PaperTable } from "./tables.ts";

/**
 * Statistics beyond the paper's tables (docs/SCORING.md "Totals", README "Results and reports"): pass@k beside pass^k per
 * model and split, and every pair of models compared over the instances both ran.
 */

/** The splits a row of the pass^k table covers: the paper's two, the hard split, and all together. */
const SPLITS: { name: string; keep: (i: InstanceResult) => boolean }[] = [
  { name: "Atomic", keep: (i) => setOf(i) === "paper" && i.split === "atomic" },
  { name: "Composite", keep: (i) => setOf(i) === "paper" && i.split === "composite" },
  { name: "Hard", keep: (i) => setOf(i) === "hard" },
  { name: "All", keep: () => true },
];

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * One row per model and split that ran: tasks, k (the attempts every task of the split has), and the
 * means over tasks of pass@1, pass@k and pass^k (src/results/stats.ts). pass^k = pass@k = pass@1 at k = 1.
 */
export function passKTable(runs: readonly MergedRun[]): PaperTable {
  const rows: string[][] = [];
  for (const run of ordered(runs))
    for (const split of SPLITS) {
      const tasks = taskScores(run.instances.filter(split.keep));
      if (tasks.length === 0 || (split.name === "All" && onlyOne(run))) continue;
      const k = commonK(tasks);
      rows.push([
        run.label,
        split.name,
        String(tasks.length),
        String(k),
        pct(meanPassAtK(tasks, 1)),
        pct(meanPassAtK(tasks, k)),
        pct(meanPassHatK(tasks, k)),
      ]);
    }
  return {
    id: "passk",
    label: "pass@k and pass^k",
    caption:
      "pass@k and pass^k per model and split (beyond the paper). k = attempts every task of the split has (epochs × merged seeds); pass@k = some of k attempts pass (≥ 60), pass^k = all k pass, each the mean over tasks of its unbiased estimator; at k = 1 both equal pass@1.",
    header: ["Model", "Split", "Tasks", "k", "pass@1", "pass@k", "pass^k"],
    align: ["l", "l", "r", "r", "r", "r", "r"],
    rows,
  };
}

/** A model's scored instances (provider errors left out) under its leaderboard label. */
type Scored = { label: string; total: number; instances: InstanceResult[] };

function ordered(runs: readonly MergedRun[]): Scored[] {
  return runs
    .map((run) => {
      const row = leaderboardRow(run);
      return {
        label: row.model,
        total: row.total,
        instances: run.results.instances.filter((i) => !isProviderError(i)),
      };
    })
    .sort((x, y) => y.total - x.total || x.label.localeCompare(y.label));
}

// "All" repeats a model's only split: shown once.
const onlyOne = (run: Scored) => SPLITS.slice(0, 3).filter((s) => run.instances.some(s.keep)).length === 1;

/** The identity of an instance across runs: same task, seed and epoch → same parameters and world. */
const instanceKey = (i: InstanceResult) => `${setOf(i)}/${i.split}/${i.taskId}/${i.seed}/${i.epoch}`;

/** Models A and B (A ranked higher by paper total) over the instances both ran; differences A − B. */
export type ModelPair = { a: string; b: string } & PairedComparison;

/**
 * Every pair of models with instances in common (same task, seed and epoch; provider errors left
 * out): the mean score difference with its seeded paired bootstrap 95 % CI and the sign test p-value
 * ({@link pairedComparison}). Pairs that share no instance are left out.
 */
export function modelPairs(runs: readonly MergedRun[]): ModelPair[] {
  const models = ordered(runs).map((m) => ({
    ...m,
    byKey: new Map(m.instances.map((i) => [instanceKey(i), i.score])),
  }));
  const pairs: ModelPair[] = [];
  for (const [x, a] of models.entries())
    for (const b of models.slice(x + 1)) {
      const keys = [...a.byKey.keys()].filter((k) => b.byKey.has(k)).sort();
      if (keys.length === 0) continue;
      const comparison = pairedComparison(
        keys.map((k) => a.byKey.get(k)!),
        keys.map((k) => b.byKey.get(k)!),
      );
      pairs.push({ a: a.label, b: b.label, ...comparison });
    }
  return pairs;
}

const signed = (x: number) => `${x > 0 ? "+" : ""}${x.toFixed(1)}`;
const pValue = (p: number) => (p < 0.001 ? "<0.001" : p.toFixed(3));

/** {@link modelPairs} as a table (null when no two models share an instance). */
export function pairsTable(runs: readonly MergedRun[]): PaperTable | null {
  const pairs = modelPairs(runs);
  if (pairs.length === 0) return null;
  return {
    id: "pairs",
    label: "Pairwise comparisons",
    caption: `Pairwise comparisons (beyond the paper) over the instances both models ran (same task, seed and epoch). Δ = mean of A − B per instance (0–100 scale), 95 % CI by a paired bootstrap (${BOOTSTRAP_RESAMPLES} resamples, fixed seed: the same runs give the same interval), W/L/T = instances A scored higher/lower/the same, p = two-sided exact sign test on W against L.`,
    header: ["A", "B", "n", "Δ", "95 % CI", "W/L/T", "p"],
    align: ["l", "l", "r", "r", "r", "r", "r"],
    rows: pairs.map((p) => [
      p.a,
      p.b,
      String(p.n),
      signed(p.mean),
      `[${signed(p.ci95[0])}, ${signed(p.ci95[1])}]`,
      `${p.wins}/${p.losses}/${p.ties}`,
      pValue(p.signP),
    ]),
  };
}

/** The tables of this module that have something to show, in report order. */
export function statsTables(runs: readonly MergedRun[]): PaperTable[] {
  const pairs = pairsTable(runs);
  return [passKTable(runs), ...(pairs ? [pairs] : [])];
}
