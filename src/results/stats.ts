/**
 * Small statistics for runs with several epochs (inspect_ai-style reducers): mean with a normal
 * 95 % confidence interval, and the unbiased pass@k estimator (Chen et al., 2021).
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

/** The q-quantile (0 ≤ q ≤ 1) by linear interpolation between order statistics; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return s[lo]! + (s[hi]! - s[lo]!) * (at - lo);
}

/** The median (the 0.5-quantile); NaN for no values. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}
