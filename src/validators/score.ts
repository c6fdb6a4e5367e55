import type { CheckResult } from "./types.ts";

/**
 * The scoring rules, atomic and composite, ours and the paper's, as pure functions (docs/SCORING.md).
 * The attempts (src/protocol/atomic.ts, composite.ts, paperComposite.ts) and `--scoring paper`
 * (src/validators/paperScoring.ts) judge the checks and the rounds, then score them here.
 */

/** The score below which an instance does not pass (docs/SCORING.md "Totals": pass ≥ 60, paper §3.7). */
export const PASS_THRESHOLD = 60;
/** The cap when a critical (★) check fails (docs/SCORING.md "★ checks"), so a pass always means the effect happened. */
export const CRITICAL_CAP = 50;

/** Whether a score passes (docs/SCORING.md "Totals": ≥ {@link PASS_THRESHOLD}, paper §3.7, §5.1). */
export function isPass(score: number): boolean {
  return score >= PASS_THRESHOLD;
}

/** The sum of the weights of the checks that hold (docs/SCORING.md "Weights", paper §4.5): the paper's atomic score. */
export function heldWeight(checks: readonly Pick<CheckResult, "passed" | "weight">[]): number {
  return checks.reduce((total, c) => total + (c.passed ? c.weight : 0), 0);
}

/**
 * Our atomic score (docs/SCORING.md "Weights" and "★ checks"): {@link heldWeight}, capped at
 * {@link CRITICAL_CAP} when a critical (★) check fails. `--scoring paper` lifts the cap.
 */
export function atomicScore(checks: readonly CheckResult[]): number {
  const sum = heldWeight(checks);
  return checks.some((c) => c.critical && !c.passed) ? Math.min(sum, CRITICAL_CAP) : sum;
}

/** The failed checks as a failure's reason: "name: detail", joined by " | " (empty when all hold). */
export function failedChecksReason(checks: readonly CheckResult[]): string {
  return checks
    .filter((c) => !c.passed)
    .map((c) => `${c.name}: ${c.detail}`)
    .join(" | ");
}

/** What a composite's base reads of a finished attempt (docs/SCORING.md "Composite tasks"). */
export type CompositeBaseInput = {
  /** Every end-state check (and the effect ledger's ★ check) holds. */
  checksHold: boolean;
  /** The attempt ended by an error report (`{"error": {…}}`, or a module's refusal). */
  errorReport: boolean;
  /** The task asks for judgement (a `refused` check): an error report may pass there. */
  refusalExpected: boolean;
  /** A refused RPC method or other integrity breach (docs/SECURITY.md): base 0 whatever the checks say. */
  integrityViolation: boolean;
};

/**
 * A composite's base (docs/SCORING.md "Composite tasks", paper §4.5 "Composite scoring"): 100 iff
 * every check holds, there was no integrity violation, and the attempt did not end by an error report
 * unless the task expects a refusal; else 0.
 */
export function compositeBase(a: CompositeBaseInput): 0 | 100 {
  return !a.integrityViolation && (!a.errorReport || a.refusalExpected) && a.checksHold ? 100 : 0;
}

/**
 * The step decay when no round counted (K_act = 0; docs/SCORING.md "Composite tasks"): 1 under our
 * protocol (nothing ran, nothing decays: the checks decide).
 */
export const OUR_ZERO_ROUNDS_DECAY = 1;
/**
 * The step decay when no round counted under the paper's implementation (docs/SCORING.md "Paper
 * scoring", paper §4.5): min(1, K_opt / K_act) with K_act ≤ 0 is 0.
 */
export const PAPER_ZERO_ROUNDS_DECAY = 0;

/**
 * The step decay (docs/SCORING.md "Composite tasks", paper §4.5): min(1, K_opt / K_act), and
 * `zeroRoundsDecay` when K_act ≤ 0 ({@link OUR_ZERO_ROUNDS_DECAY} or {@link PAPER_ZERO_ROUNDS_DECAY}).
 */
export function stepDecay(kOpt: number, kAct: number, zeroRoundsDecay: 0 | 1): number {
  return kAct <= 0 ? zeroRoundsDecay : Math.min(1, kOpt / kAct);
}

/** A composite's score (docs/SCORING.md "Composite tasks", paper §4.5): base × decay, rounded to two decimals. */
export function compositeScore(base: number, decay: number): number {
  return Math.round(base * decay * 100) / 100;
}

/**
 * The failure code of a composite whose base is 0 (results.json `failure.code`, docs/SCORING.md
 * "Composite tasks"): how it ended when that explains the 0 (out of rounds, or an error report), else none.
 */
export function compositeFailureCode(endedBy: string): "budget_exhausted" | "error_report" | undefined {
  return endedBy === "budget" ? "budget_exhausted" : endedBy === "error_report" ? "error_report" : undefined;
}
