/*
 * results.json's `summary` (docs/ARCHITECTURE.md "Results"): the split totals through the shared
 * reducers, the provider errors and usage, safety % and execution cost of a set of instances. The
 * results recorder writes it when a run finishes and when runs merge; the report renders it.
 */
import { sumUsage } from "../models/usage.ts";
import { compositeMetrics } from "./metrics.ts";
import { isProviderError, PAPER_SCORING, setOf, splitScores, taskScores } from "./reduce.ts";
import { median, quantile } from "./stats.ts";
import type { ExecutionSummary, InstanceResult, ProviderErrors, RunResults, SafetyFlag } from "./types.ts";

/**
 * Safety % of a set of instances (docs/SCORING.md "Safety flags"): the share of those with a `safety` record that
 * raised no flag; undefined when none was judged (e.g. results written before safety was recorded).
 */
export function safetySummary(instances: readonly InstanceResult[]): RunResults["summary"]["safety"] {
  const judged = instances.filter((i) => i.safety !== undefined);
  if (judged.length === 0) return undefined;
  const flags: Partial<Record<SafetyFlag, number>> = {};
  for (const i of judged) for (const f of i.safety ?? []) flags[f] = (flags[f] ?? 0) + 1;
  const safe = judged.filter((i) => i.safety?.length === 0).length;
  return { judged: judged.length, safe, pct: Math.round((safe / judged.length) * 1000) / 10, flags };
}

/**
 * Execution cost of a set of instances against their gold answers (docs/SCORING.md "Execution
 * cost"): median and 90th percentile cost in basis points of the notional, median gas ratio.
 */
export function executionSummary(instances: readonly InstanceResult[]): ExecutionSummary | undefined {
  const measured = instances.flatMap((i) => (i.execution ? [i.execution] : []));
  if (measured.length === 0) return undefined;
  const bps = measured.flatMap((e) => (e.costBps === null ? [] : [e.costBps]));
  const gas = measured.flatMap((e) => (e.gasRatio === null ? [] : [e.gasRatio]));
  const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
  return {
    priced: bps.length,
    medianCostBps: bps.length ? r(median(bps), 1) : null,
    p90CostBps: bps.length ? r(quantile(bps, 0.9), 1) : null,
    gasCompared: gas.length,
    medianGasRatio: gas.length ? r(median(gas), 3) : null,
  };
}

/**
 * Split totals of the paper's Table 1 (§3.7) through the shared reducers (src/results/reduce.ts):
 * per task the mean over its epochs, summed per split. Instances with a `provider_error` are left out
 * of every split and of the composite metrics: they are no model failure, and the next run into the
 * same `--out` retries them. They are counted in `providerErrors` instead; `usage` sums tokens and
 * cost. Both of those are present only in runs of provider models.
 */
export function summarize(all: readonly InstanceResult[]): RunResults["summary"] {
  const instances = all.filter((i) => !isProviderError(i));
  const failed = all.filter(isProviderError);
  const provider = failed.length > 0 || all.some((i) => i.usage);
  // `--scoring paper`: the paper's tasks reduced the same way, from their paper scores, kept apart.
  const paper = instances.some((i) => i.paperScoring)
    ? splitScores(taskScores(instances, PAPER_SCORING))
    : undefined;
  return {
    ...splitScores(taskScores(instances)),
    paperScoring: paper && { atomic: paper.atomic, composite: paper.composite, total: paper.total },
    // Table 2's composite quality is the paper's composite split's.
    compositeMetrics: compositeMetrics(instances.filter((i) => setOf(i) === "paper")),
    providerErrors: provider ? providerErrorCounts(failed) : undefined,
    usage: provider ? sumUsage(all.map((i) => i.usage)) : undefined,
    safety: safetySummary(instances),
    execution: executionSummary(instances),
  };
}

/**
 * The instances without a score by task set, as the totals are split (docs/SCORING.md "Totals"):
 * `atomic`, `composite` and `total` of the paper's tasks; `hard` and `custom` (a pack's) apart,
 * present when a run of theirs had one.
 */
function providerErrorCounts(failed: readonly InstanceResult[]): ProviderErrors {
  const paper = failed.filter((i) => setOf(i) === "paper");
  const atomic = paper.filter((i) => i.split === "atomic").length;
  const hard = failed.filter((i) => setOf(i) === "hard").length;
  const custom = failed.filter((i) => setOf(i) === "custom").length;
  return {
    atomic,
    composite: paper.length - atomic,
    total: paper.length,
    ...(hard > 0 ? { hard } : {}),
    ...(custom > 0 ? { custom } : {}),
  };
}
