import seedrandom from "seedrandom";

/**
 * Small statistics for runs with several epochs (inspect_ai-style reducers), with the **task** as
 * the unit of every interval and comparison (docs/SCORING.md "Statistics"; Miller, 2024, "Adding
 * Error Bars to Evals", arXiv:2411.00640: cluster by question, compare models on paired
 * differences). The epochs of one task are not independent observations: a caller reduces them to
 * the task's mean first, and passes one number per task. Here: the t-based 95 % interval of a mean,
 * the unbiased pass@k (Chen et al., 2021) and pass^k (Yao et al., 2024) estimators, and the paired
 * comparison of two models over the same tasks (a seeded paired bootstrap over tasks, the t
 * interval of the mean difference, and the exact sign test).
 */

/** A mean and its two-sided 95 % interval; `ci95` is null when undefined (fewer than 2 observations). */
export type MeanInterval = { mean: number; ci95: [number, number] | null; n: number };

/**
 * The mean of `values` (one observation each, e.g. one per task) and its two-sided 95 % Student t
 * interval, mean ± t(0.975, n − 1) · s / √n, s the sample SD (n − 1 divisor): exact for normal
 * observations and the usual small-n choice (Miller, 2024, §2). `ci95` is null for n < 2 (no
 * spread to measure: shown "—", never "± 0"); the mean is NaN for n = 0.
 */
export function tInterval95(values: readonly number[]): MeanInterval {
  const n = values.length;
  const mean = n === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / n;
  const sd = sampleSd(values);
  if (sd === null) return { mean, ci95: null, n };
  const half = studentTQuantile(0.975, n - 1) * (sd / Math.sqrt(n));
  return { mean, ci95: [mean - half, mean + half], n };
}

/** The sample standard deviation (n − 1 divisor); null for fewer than 2 values. */
export function sampleSd(values: readonly number[]): number | null {
  const n = values.length;
  if (n < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
}

/**
 * The p-quantile (0 < p < 1) of Student's t distribution with `df` ≥ 1 degrees of freedom, by
 * bisection on its CDF (the regularized incomplete beta function, Numerical Recipes §6.4), within
 * about 1e-8 (the CDF's own precision near t = 0; 9 digits at the 0.975 quantile).
 * @throws {RangeError} for p outside (0, 1) or df < 1.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a quantile needs 0 < p < 1, got ${p}`);
  if (!(df >= 1)) throw new RangeError(`Student's t needs df ≥ 1, got ${df}`);
  let lo = -1e6;
  let hi = 1e6;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom: 1 − I_{df/(df+t²)}(df/2, 1/2) / 2 for t ≥ 0. */
export function studentTCdf(t: number, df: number): number {
  const tail = incompleteBeta(df / (df + t * t), df / 2, 0.5) / 2;
  return t >= 0 ? 1 - tail : tail;
}

/** The regularized incomplete beta function I_x(a, b), by its continued fraction (Numerical Recipes §6.4). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(x, a, b)) / a
    : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const aa of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + aa * d;
      if (Math.abs(d) < tiny) d = tiny;
      c = 1 + aa / c;
      if (Math.abs(c) < tiny) c = tiny;
      d = 1 / d;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 significant digits). */
function logGamma(x: number): number {
  const g = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = g[0]!;
  for (let i = 1; i < 9; i++) sum += g[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
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

/** A paired comparison of two models over the same tasks (differences A − B of per-task means). */
export type PairedComparison = {
  /** Tasks both models ran (ties included): the observations. */
  n: number;
  /** Mean of the per-task differences. */
  mean: number;
  /**
   * Percentile bootstrap 95 % CI of the mean difference: the 2.5 % and 97.5 % quantiles of the
   * means of {@link BOOTSTRAP_RESAMPLES} resamples of the tasks; null for fewer than 2 tasks.
   */
  bootstrap95: [number, number] | null;
  /** Student t 95 % CI of the mean difference (n − 1 df; {@link tInterval95}); null for fewer than 2 tasks. */
  t95: [number, number] | null;
  /** Tasks where A scored higher, lower, the same. */
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
 * Paired comparison of `a` and `b`: per-task scores of two models (each task's mean over its
 * epochs, 0–100), the same tasks in the same order. Returns the mean difference with a percentile
 * bootstrap 95 % CI (tasks resampled with replacement, seeded with seedrandom, so the same inputs
 * and seed give the same interval on every machine; Efron & Tibshirani, 1993), its Student t 95 %
 * CI, and the exact two-sided sign test on the per-task differences (Miller, 2024, §4: paired
 * differences over questions).
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
  if (n === 0) throw new RangeError("a paired comparison needs at least one task");
  const d = a.map((x, i) => x - b[i]!);
  const { mean, ci95: t95 } = tInterval95(d);
  const wins = d.filter((x) => x > 0).length;
  const losses = d.filter((x) => x < 0).length;
  return {
    n,
    mean,
    bootstrap95: n < 2 ? null : bootstrapMeanCi95(d, options),
    t95,
    wins,
    losses,
    ties: n - wins - losses,
    signP: signTest(wins, losses),
  };
}

/** The seeded percentile bootstrap 95 % CI of the mean of `d` (see {@link pairedComparison}). */
function bootstrapMeanCi95(
  d: readonly number[],
  options: { seed?: string; resamples?: number },
): [number, number] {
  const n = d.length;
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  // Alea's 32-bit draws: seedrandom's fastest (its default ARC4 takes seconds per pair of a few
  // hundred observations, and a report compares every pair of models).
  const random = seedrandom.alea(options.seed ?? BOOTSTRAP_SEED);
  const diffs = Float64Array.from(d);
  const means = new Array<number>(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diffs[Math.floor(random.quick() * n)]!;
    means[r] = sum / n;
  }
  return [quantile(means, 0.025), quantile(means, 0.975)];
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
