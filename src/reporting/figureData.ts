/**
 * What the report's figures plot, aggregated from the merged runs and the leaderboard rows alone
 * (docs/RUNNING.md "Reports"; no task folder is read, so a results.json draws the same figures
 * after the tasks change): pass rates by group (pooled over models when there are
 * more than fit side by side), the ten most frequent workflow patterns, Figure 2's task counts,
 * Figure 3's points and medians, Figure 6's step-overhead counts. Builds no spec and renders nothing
 * (src/reporting/figureSpecs.ts, src/reporting/figures.ts). The paper's figures leave the hard split
 * out: it is reported apart.
 */

import type { MergedRun } from "../results/merge.ts";
import { setOf } from "../results/reduce.ts";
import type { InstanceResult } from "../results/types.ts";
import { PAPER_PATTERNS } from "../tasks/patterns.ts";
import type { Figure2Data, OverheadCount, Rate, ScatterData } from "./figureSpecs.ts";
import type { LeaderboardRow } from "./leaderboard.ts";
import { quadrantMedians } from "./quadrants.ts";

/**
 * The workflow pattern a composite result is grouped by in Figures 4–5: the one stored in the result
 * (`pattern`, recorded when it was built); for results written before that field, the paper's
 * pattern name for the task id, else the subcategory (underscores as spaces).
 */
export const patternOf = (i: Pick<InstanceResult, "pattern" | "taskId" | "subcategory">): string =>
  i.pattern ?? PAPER_PATTERNS[i.taskId] ?? i.subcategory.replace(/_/g, " ");

const pct = (xs: readonly { passed: boolean }[]) =>
  xs.length === 0 ? 0 : Math.round((xs.filter((x) => x.passed).length / xs.length) * 1000) / 10;

export function passRateBy(
  runs: readonly MergedRun[],
  split: "atomic" | "composite",
  groupOf: (i: InstanceResult) => string,
): Rate[] {
  const rows: Rate[] = [];
  for (const run of runs) {
    const groups = new Map<string, InstanceResult[]>();
    // The paper's figures: hard-split instances are reported apart, not drawn here.
    for (const i of run.results.instances)
      if (i.split === split && setOf(i) === "paper" && i.failure?.class !== "provider_error")
        groups.set(groupOf(i), [...(groups.get(groupOf(i)) ?? []), i]);
    for (const [group, xs] of groups) {
      const passRate = pct(xs);
      rows.push({ model: run.model, group, passRate, n: xs.length, label: `${passRate}%` });
    }
  }
  return rows;
}

/** Most models drawn side by side in a pass-rate figure; beyond that the models are pooled. */
export const MAX_BARS_PER_GROUP = 4;

/** Pass rates pooled over every model's instances (one bar per group), for more models than bars fit. */
export function pooled(rates: readonly Rate[]): Rate[] {
  const by = new Map<string, { passed: number; n: number }>();
  for (const r of rates) {
    const g = by.get(r.group) ?? { passed: 0, n: 0 };
    g.passed += (r.passRate / 100) * r.n;
    g.n += r.n;
    by.set(r.group, g);
  }
  return [...by].map(([group, g]) => {
    const passRate = Math.round((g.passed / g.n) * 1000) / 10;
    return { model: "all models", group, passRate, n: g.n, label: `${passRate}% (n=${g.n})` };
  });
}

/** The `count` groups with the most instances over every model (ties by name). */
export function mostFrequent(rates: readonly Rate[], count: number): Set<string> {
  const frequency = new Map<string, number>();
  for (const p of rates) frequency.set(p.group, (frequency.get(p.group) ?? 0) + p.n);
  return new Set(
    [...frequency]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, count)
      .map(([g]) => g),
  );
}

/**
 * Figure 2's data from the results alone: the distinct paper tasks the runs hold per split (a task
 * counts once however many models, seeds and epochs ran it), and the composite ones by K_opt (the
 * `composite.kOpt` of any of its results; a task none of whose results has a composite record is
 * left out of the histogram).
 */
export function figure2Data(runs: readonly MergedRun[]): Figure2Data {
  const tasks = new Map<string, { split: InstanceResult["split"]; kOpt?: number }>();
  for (const run of runs)
    for (const i of run.results.instances) {
      if ((i.set ?? "paper") !== "paper") continue;
      const known = tasks.get(i.taskId) ?? { split: i.split };
      if (known.kOpt === undefined && i.composite) known.kOpt = i.composite.kOpt;
      tasks.set(i.taskId, known);
    }
  const specs = [...tasks.values()];
  const splits = (["atomic", "composite"] as const).map((s) => ({
    split: s,
    tasks: specs.filter((t) => t.split === s).length,
  }));
  const kOpt = new Map<number, number>();
  for (const t of specs) if (t.split === "composite" && t.kOpt) kOpt.set(t.kOpt, (kOpt.get(t.kOpt) ?? 0) + 1);
  // Every K_opt from the smallest to the largest, an empty one drawn as 0 (a gap is a finding).
  const ks = [...kOpt.keys()];
  const hist = ks.length
    ? Array.from({ length: Math.max(...ks) - Math.min(...ks) + 1 }, (_, i) => Math.min(...ks) + i).map(
        (k) => ({
          k: String(k),
          n: kOpt.get(k) ?? 0,
        }),
      )
    : [];
  return { splits, hist };
}

/**
 * Figure 3's data: each model's AtomicAvg and CompositeAvg, and the medians Table 10's quadrants
 * split at. A model that did not run one of the splits has no point (its average is "—", not 0).
 */
export function scatterData(rows: readonly LeaderboardRow[]): ScatterData {
  const points = rows.flatMap((r) =>
    r.atomicAvg === null || r.compositeAvg === null
      ? []
      : [
          {
            model: r.model,
            atomic: Math.round(r.atomicAvg * 10) / 10,
            composite: Math.round(r.compositeAvg * 10) / 10,
          },
        ],
  );
  return { points, medians: quadrantMedians(rows) };
}

/** Figure 6's data: composite instances per model and Δ = K_act − K_opt (provider errors and the hard split left out). */
export function overheadCounts(runs: readonly MergedRun[]): OverheadCount[] {
  const counts = new Map<string, number>();
  for (const run of runs)
    for (const i of run.results.instances)
      if (i.composite && setOf(i) === "paper" && i.failure?.class !== "provider_error") {
        const key = `${run.model}\u0000${i.composite.kAct - i.composite.kOpt}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
  return [...counts].map(([key, n]) => {
    const [model, d] = key.split("\u0000");
    return { model: model!, delta: Number(d), n };
  });
}
