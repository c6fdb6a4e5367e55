/**
 * The median, a leaf of the foundation layer (docs/ARCHITECTURE.md "Layers") so that every layer may
 * use the one definition: the statistics of results.json (src/results/stats.ts re-exports it) and
 * the sandbox's overhead figures (src/sandbox/benchSandbox.ts, below src/results). Imports nothing.
 */

/**
 * The median: the middle of the sorted values, or halfway between the two middles for an even count
 * (the 0.5-quantile by linear interpolation between order statistics); NaN for no values.
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const lo = Math.floor((sorted.length - 1) / 2);
  const hi = Math.ceil((sorted.length - 1) / 2);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * 0.5;
}
