import { PASS_MARK } from "../reporting/progress.ts";
import type { InstanceOutcome } from "../results/outcome.ts";

/**
 * Why a scored (or resumed) instance is below the pass mark (score < 60, paper §3.7), as one line for a
 * failing Vitest test: the score, the failure class and reason if any, and each failed check with its
 * detail (weights, ★ for a critical check). Undefined when the instance passed or was not scored (those
 * outcomes have their own test states: skipped, or failed with the provider's or chain's message).
 * @example "score 0 checks_failed — below the pass mark (60); failed checks: ★ holdings (…), balance (…)"
 */
export function belowPassMark(outcome: InstanceOutcome): string | undefined {
  if (outcome.kind !== "scored" && outcome.kind !== "resumed") return undefined;
  const r = outcome.result;
  if (r.score >= PASS_MARK) return undefined;
  const failed = r.checks
    .filter((c) => !c.passed)
    .map((c) => `${c.critical ? "★ " : ""}${c.name} (weight ${c.weight}: ${c.detail})`);
  return [
    `score ${r.score}${outcome.kind === "resumed" ? " (resumed)" : ""} — below the pass mark (${PASS_MARK})`,
    ...(r.failure ? [`${r.failure.class}: ${r.failure.reason}`] : []),
    ...(failed.length > 0 ? [`failed checks: ${failed.join("; ")}`] : []),
  ].join("; ");
}
