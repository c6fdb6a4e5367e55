/**
 * The `--budget USD` gate: before an instance starts, it projects this invocation's spend as what has
 * been paid so far, plus one per-instance estimate for each instance in flight and for the new one,
 * and refuses the new instance when that passes the limit. The per-instance estimate is the mean paid
 * by the finished instances that paid anything, else the caller's prior (from the prompt's size).
 * Once it has refused one instance it refuses every later one, so the run stops starting instances.
 * Cached calls cost nothing, so a rerun over a warm cache is not held back.
 */
export function createBudget(p: { limitUsd: number; spentUsd: () => number }) {
  let inFlight = 0;
  let paidInstances = 0;
  let paidUsd = 0;
  let stopped = false;
  return {
    get stopped() {
      return stopped;
    },
    /** True if an instance estimated at `priorUsd` may start (then call `settle` when it ends). */
    admit(priorUsd: number): boolean {
      if (stopped) return false;
      const perInstance = paidInstances > 0 ? paidUsd / paidInstances : priorUsd;
      if (p.spentUsd() + (inFlight + 1) * perInstance > p.limitUsd) {
        stopped = true;
        return false;
      }
      inFlight++;
      return true;
    },
    /** An admitted instance ended, having paid `spentUsd`. */
    settle(spentUsd: number) {
      inFlight--;
      if (spentUsd > 0) {
        paidInstances++;
        paidUsd += spentUsd;
      }
    },
  };
}
