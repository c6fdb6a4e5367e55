import type { CheckResult } from "./types.ts";

/** The score below which an instance does not pass (docs/SCORING.md "Totals": pass ≥ 60, paper §3.7). */
export const PASS_THRESHOLD = 60;
/** The cap when a critical (★) check fails (docs/SCORING.md "★ checks"), so a pass always means the effect happened. */
export const CRITICAL_CAP = 50;

/** Atomic score: the sum of the weights of the checks that hold, capped at 50 if a critical one fails. */
export function atomicScore(checks: readonly CheckResult[]): number {
  const sum = checks.reduce((total, c) => total + (c.passed ? c.weight : 0), 0);
  return checks.some((c) => c.critical && !c.passed) ? Math.min(sum, CRITICAL_CAP) : sum;
}

export function isPass(score: number): boolean {
  return score >= PASS_THRESHOLD;
}
