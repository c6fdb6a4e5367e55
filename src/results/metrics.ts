import { OUR_ZERO_ROUNDS_DECAY, stepDecay } from "../validators/score.ts";
import type { CompositeMetrics, InstanceResult, RoundRecord } from "./types.ts";

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Nearest-rank percentile of `xs` (p in 0–100). */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Retries of one composite attempt (paper §5.3 "5 total retries"): the counted rounds that follow a
 * failed counted round (a failed execution or an error report), i.e. the tries spent again after a failure.
 */
export function retriesOf(rounds: readonly Pick<RoundRecord, "counted" | "kind">[]): number {
  const counted = rounds.filter((r) => r.counted);
  return counted.filter((r, i) => i > 0 && isFailed(counted[i - 1]!)).length;
}

const isFailed = (r: Pick<RoundRecord, "kind">) => r.kind === "failed" || r.kind === "error_report";

export function compositeMetrics(instances: readonly InstanceResult[]): CompositeMetrics | null {
  const xs = instances.filter((i) => i.composite);
  if (xs.length === 0) return null;
  const k = xs.map((i) => i.composite!);
  const deltas = k.map((c) => c.kAct - c.kOpt);
  return {
    count: xs.length,
    meanKAct: round(mean(k.map((c) => c.kAct))),
    meanKFailed: round(mean(k.map((c) => c.kFailed))),
    meanKQuery: round(mean(k.map((c) => c.kQuery))),
    totalRetries: k.reduce((s, c) => s + retriesOf(c.rounds ?? []), 0),
    // Over the same instances as K: an attempt with no counted round decays by nothing (as it scores).
    effPct: round(mean(k.map((c) => stepDecay(c.kOpt, c.kAct, OUR_ZERO_ROUNDS_DECAY))) * 100, 1),
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

/**
 * The composite plan's steps (paper §4: the planning call before any execution). The model is asked
 * for `{"plan": ["step 1", …]}` in a json block; a reply that is not that JSON falls back to its
 * numbered or bulleted lines. Returns null when no step can be read.
 */
export function planSteps(plan: string): string[] | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(plan)?.[1] ?? plan;
  try {
    const parsed = JSON.parse(fenced.trim()) as { plan?: unknown };
    if (Array.isArray(parsed?.plan) && parsed.plan.length > 0) return parsed.plan.map((s) => String(s));
  } catch {
    // not JSON: read the lines below
  }
  const lines = plan
    .split("\n")
    .map((l) => /^\s*(?:\d+[.)]|[-*•])\s+(.+)$/.exec(l)?.[1]?.trim())
    .filter((l): l is string => Boolean(l));
  return lines.length > 0 ? lines : null;
}
