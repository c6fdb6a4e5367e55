import type { InstanceResult } from "./types.ts";

/**
 * Composite execution-quality metrics (paper §5.3 Table 2 and App. F.3 Table 9), over the composite
 * instances of a run. Percentages are 0–100; `null` when no composite instance ran.
 * - meanKAct: mean K_act (execution rounds, failures and queries included).
 * - effPct (Eff%): mean of min(1, K_opt / K_act) over instances with K_act > 0.
 * - firstTryPct (1st%): share of instances that passed (score ≥ 60) without a failed round.
 * - ethersPct (ethers%): share of instances with an "ethers is not defined" failure in some round.
 * - overhead: Δ = K_act − K_opt — its mean, the share of instances with Δ > 0, and its P90
 *   (nearest rank).
 * Also kept apart (the paper's K_act conflates them): mean K_failed and mean K_query.
 */
export type CompositeMetrics = {
  count: number;
  meanKAct: number;
  meanKFailed: number;
  meanKQuery: number;
  effPct: number;
  firstTryPct: number;
  ethersPct: number;
  overhead: { mean: number; overOptimalPct: number; p90: number };
};

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Nearest-rank percentile of `xs` (p in 0–100). */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function compositeMetrics(instances: readonly InstanceResult[]): CompositeMetrics | null {
  const xs = instances.filter((i) => i.composite);
  if (xs.length === 0) return null;
  const k = xs.map((i) => i.composite!);
  const deltas = k.map((c) => c.kAct - c.kOpt);
  const active = k.filter((c) => c.kAct > 0);
  return {
    count: xs.length,
    meanKAct: round(mean(k.map((c) => c.kAct))),
    meanKFailed: round(mean(k.map((c) => c.kFailed))),
    meanKQuery: round(mean(k.map((c) => c.kQuery))),
    effPct: round(mean(active.map((c) => Math.min(1, c.kOpt / c.kAct))) * 100, 1),
    firstTryPct: round(
      (xs.filter((i) => i.passed && i.composite!.kFailed === 0).length / xs.length) * 100,
      1,
    ),
    ethersPct: round((k.filter((c) => c.ethersNotDefined).length / xs.length) * 100, 1),
    overhead: {
      mean: round(mean(deltas)),
      overOptimalPct: round((deltas.filter((d) => d > 0).length / xs.length) * 100, 1),
      p90: percentile(deltas, 90),
    },
  };
}

/** One line for the end of a run. */
export function renderCompositeMetrics(m: CompositeMetrics): string {
  return `Composite quality: K_act ${m.meanKAct} (failed ${m.meanKFailed}, queries ${m.meanKQuery}) · Eff ${m.effPct}% · 1st ${m.firstTryPct}% · ethers ${m.ethersPct}% · Δ mean ${m.overhead.mean}, over-optimal ${m.overhead.overOptimalPct}%, P90 ${m.overhead.p90}`;
}
