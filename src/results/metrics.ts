import type { CompositeMetrics, InstanceResult } from "./types.ts";

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
