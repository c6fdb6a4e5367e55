import seedrandom from "seedrandom";

/**
 * Small statistics for runs with several epochs (inspect_ai-style reducers): mean with a normal
 * 95 % confidence interval, the unbiased pass@k (Chen et al., 2021) and pass^k (Yao et al., 2024)
 * estimators, and the paired comparison of two models over the same instances (a seeded paired
 * bootstrap of the mean difference, and the exact sign test).
 */

/** Mean and the half-width of its 95 % confidence interval (1.96 · s / √n; 0 for n < 2). */
export function meanCi95(values: readonly number[]): { mean: number; ci95: number; n: number } {
  const n = values.length;
  if (n === 0) return { mean: 0, ci95: 0, n };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, ci95: 0, n };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  return { mean, ci95: 1.96 * Math.sqrt(variance / n), n };
}

/**
 * pass@k for one task: the probability that at least one of k samples drawn without replacement from
 * n attempts (c of them passing) passes: 1 − C(n−c, k) / C(n, k). Requires k ≤ n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass@${k} needs at least ${k} attempts, got ${n}`);
  if (n - c < k) return 1;
  let missAll = 1;
  for (let i = n - c + 1; i <= n; i++) missAll *= 1 - k / i;
  return 1 - missAll;
}

/**
 * pass^k for one task: the probability that all k samples drawn without replacement from n attempts
 * (c of them passing) pass: C(c, k) / C(n, k) (τ-bench's unbiased estimator, Yao et al., 2024): what
 * matters when every run of an agent moves real money. Requires k ≤ n.
 */
export function passHatK(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass^${k} needs at least ${k} attempts, got ${n}`);
  let all = 1;
  for (let i = 0; i < k; i++) all *= Math.max(0, c - i) / (n - i);
  return all;
}

/** A paired comparison of two models over the same instances (differences A − B). */
export type PairedComparison = {
  /** Instances both models ran (ties included). */
  n: number;
  /** Mean of the differences. */
  mean: number;
  /** Percentile bootstrap 95 % CI of the mean difference: the 2.5 % and 97.5 % quantiles of the resampled means. */
  ci95: [number, number];
  /** Instances where A scored higher, lower, the same. */
  wins: number;
  losses: number;
  ties: number;
  /** Two-sided exact sign test of wins against losses (ties dropped); 1 when there are none. */
  signP: number;
};

/** Resamples of {@link pairedComparison}'s bootstrap and its default seed. */
export const BOOTSTRAP_RESAMPLES = 10_000;
export const BOOTSTRAP_SEED = "questbench/pairs";

/**
 * Paired comparison of `a` and `b` (scores of the same instances, in the same order): the mean
 * difference with a percentile bootstrap 95 % CI (instances resampled with replacement, seeded with
 * seedrandom, so the same inputs and seed give the same interval on every machine; Efron &
 * Tibshirani, 1993) and the exact two-sided sign test.
 * @throws {RangeError} when the lists differ in length or are empty.
 */
export function pairedComparison(
  a: readonly number[],
  b: readonly number[],
  options: { seed?: string; resamples?: number } = {},
): PairedComparison {
  if (a.length !== b.length)
    throw new RangeError(`paired lists differ in length: ${a.length} and ${b.length}`);
  const n = a.length;
  if (n === 0) throw new RangeError("a paired comparison needs at least one instance");
  const d = a.map((x, i) => x - b[i]!);
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  // Alea's 32-bit draws: seedrandom's fastest (its default ARC4 takes seconds per pair of a few
  // hundred instances, and a report compares every pair of models).
  const random = seedrandom.alea(options.seed ?? BOOTSTRAP_SEED);
  const diffs = Float64Array.from(d);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diffs[Math.floor(random.quick() * n)]!;
    means[r] = sum / n;
  }
  const all = Array.from(means);
  const wins = d.filter((x) => x > 0).length;
  const losses = d.filter((x) => x < 0).length;
  return {
    n,
    mean,
    ci95: [quantile(all, 0.025), quantile(all, 0.975)],
    wins,
    losses,
    ties: n - wins - losses,
    signP: signTest(wins, losses),
  };
}

/**
 * Two-sided exact sign test: p = min(1, 2 · P(X ≤ min(wins, losses))) for X ~ Binomial(wins +
 * losses, 1/2) (ties are dropped before calling); 1 when both are 0. Summed in log space, so a few
 * thousand instances do not underflow.
 */
export function signTest(wins: number, losses: number): number {
  const n = wins + losses;
  if (n === 0) return 1;
  const k = Math.min(wins, losses);
  let logChoose = 0;
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logChoose - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

/** The q-quantile (0 ≤ q ≤ 1) by linear interpolation between order statistics; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return s[lo]! + (s[hi]! - s[lo]!) * (at - lo);
}

/** The median (the 0.5-quantile); NaN for no values. One definition for every layer: src/median.ts. */
export { median } from "../median.ts";
