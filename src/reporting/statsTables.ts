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

/**
 * The splits a row of the pass^k table covers: the paper's two, the hard split, the package's tasks
 * together (`--split all`), and the task packs' apart: a pack's task never counts in the package's
 * rows (docs/SCORING.md "Totals").
 */
const SPLITS: { name: string; keep: (i: InstanceResult) => boolean }[] = [
  { name: "Atomic", keep: (i) => setOf(i) === "paper" && i.split === "atomic" },
  { name: "Composite", keep: (i) => setOf(i) === "paper" && i.split === "composite" },
  { name: "Hard", keep: (i) => setOf(i) === "hard" },
  { name: "All", keep: (i) => setOf(i) !== "custom" },
  { name: "Custom", keep: (i) => setOf(i) === "custom" },
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
const instanceKey = (i: InstanceResult) => `${taskKey(i)}/${i.seed}/${i.epoch}`;
const taskKey = (i: InstanceResult) => `${setOf(i)}/${i.split}/${i.taskId}`;

/** Models A and B (A ranked higher by paper total) over the tasks both ran; differences A − B. */
export type ModelPair = { a: string; b: string; instances: number } & PairedComparison;

/**
 * Every pair of models with instances in common (same task, seed and epoch; provider errors left
 * out), compared with the task as the unit (docs/SCORING.md "Statistics"): per task, each model's
 * mean over the instances both ran; then the mean difference, its seeded paired bootstrap and t 95 %
 * CIs over tasks, and the sign test on the per-task differences ({@link pairedComparison}).
 * `instances` = the shared instances behind the `n` tasks. Pairs that share no instance are left out.
 */
export function modelPairs(runs: readonly MergedRun[]): ModelPair[] {
  const models = ordered(runs).map((m) => ({
    ...m,
    byKey: new Map(m.instances.map((i) => [instanceKey(i), i])),
  }));
  const pairs: ModelPair[] = [];
  for (const [x, a] of models.entries())
    for (const b of models.slice(x + 1)) {
      const byTask = new Map<string, { a: number[]; b: number[] }>();
      for (const [key, i] of a.byKey) {
        const j = b.byKey.get(key);
        if (!j) continue;
        const t = byTask.get(taskKey(i)) ?? { a: [], b: [] };
        t.a.push(i.score);
        t.b.push(j.score);
        byTask.set(taskKey(i), t);
      }
      if (byTask.size === 0) continue;
      const tasks = [...byTask.keys()].sort().map((k) => byTask.get(k)!);
      const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;
      const comparison = pairedComparison(
        tasks.map((t) => mean(t.a)),
        tasks.map((t) => mean(t.b)),
      );
      const instances = tasks.reduce((s, t) => s + t.a.length, 0);
      pairs.push({ a: a.label, b: b.label, instances, ...comparison });
    }
  return pairs;
}

const signed = (x: number) => `${x > 0 ? "+" : ""}${x.toFixed(1)}`;
const pValue = (p: number) => (p < 0.001 ? "<0.001" : p.toFixed(3));
const interval = (ci: [number, number] | null) =>
  ci === null ? "—" : `[${signed(ci[0])}, ${signed(ci[1])}]`;

/** {@link modelPairs} as a table (null when no two models share an instance). */
export function pairsTable(runs: readonly MergedRun[]): PaperTable | null {
  const pairs = modelPairs(runs);
  if (pairs.length === 0) return null;
  return {
    id: "pairs",
    label: "Pairwise comparisons",
    caption: `Pairwise comparisons (beyond the paper), the task as the unit: over the instances both models ran (same task, seed and epoch), each task's mean per model, then one difference A − B per task (0–100 scale). n = tasks (instances behind them), Δ = mean of the per-task differences, t 95 % CI = Student t interval (n − 1 df), bootstrap 95 % CI = percentile interval of ${BOOTSTRAP_RESAMPLES} resamples of the tasks (fixed seed: the same runs give the same interval), W/L/T = tasks A scored higher/lower/the same, p = two-sided exact sign test on W against L. "—" under 2 tasks.`,
    header: ["A", "B", "n", "Δ", "t 95 % CI", "bootstrap 95 % CI", "W/L/T", "p"],
    align: ["l", "l", "r", "r", "r", "r", "r", "r"],
    rows: pairs.map((p) => [
      p.a,
      p.b,
      `${p.n} (${p.instances})`,
      signed(p.mean),
      interval(p.t95),
      interval(p.bootstrap95),
      `${p.wins}/${p.losses}/${p.ties}`,
      pValue(p.signP),
    ]),
  };
}

/**
 * One row per model run under both protocols (the code protocol and `--protocol tools`, docs/PROTOCOLS.md
 * "Reports"): tasks both ran, tasks each passes (mean score ≥ 60 over its instances), and the tasks
 * only one protocol solves, by id. Null when no model ran under both.
 */
export function protocolsTable(runs: readonly MergedRun[]): PaperTable | null {
  const byLabel = new Map(runs.map((r) => [r.model, r]));
  const rows: string[][] = [];
  for (const tools of runs) {
    const code = tools.manifest.modes?.protocol === "tools" ? byLabel.get(tools.manifest.model) : undefined;
    if (!code) continue;
    const passed = (run: MergedRun) =>
      new Map(
        taskScores(run.results.instances.filter((i) => !isProviderError(i))).map((t) => [
          t.taskId,
          t.mean >= 60,
        ]),
      );
    const a = passed(code);
    const b = passed(tools);
    const both = [...a.keys()].filter((id) => b.has(id)).sort();
    const only = (x: Map<string, boolean>, y: Map<string, boolean>) =>
      both.filter((id) => x.get(id) && !y.get(id));
    const list = (ids: string[]) => (ids.length === 0 ? "—" : ids.join(", "));
    rows.push([
      code.model,
      String(both.length),
      String(both.filter((id) => a.get(id)).length),
      String(both.filter((id) => b.get(id)).length),
      list(only(a, b)),
      list(only(b, a)),
    ]);
  }
  if (rows.length === 0) return null;
  return {
    id: "protocols",
    label: "Protocols side by side",
    caption:
      "One model under both protocols (beyond the paper): the code protocol (a TypeScript module per step) and --protocol tools (native function calling), over the tasks both ran; a task passes when its mean score over its instances is ≥ 60.",
    header: ["Model", "Tasks", "Passed (code)", "Passed (tools)", "Only code solves", "Only tools solves"],
    align: ["l", "r", "r", "r", "l", "l"],
    rows,
  };
}

/** The tables of this module that have something to show, in report order. */
export function statsTables(runs: readonly MergedRun[]): PaperTable[] {
  const pairs = pairsTable(runs);
  const protocols = protocolsTable(runs);
  return [passKTable(runs), ...(pairs ? [pairs] : []), ...(protocols ? [protocols] : [])];
}
