import type { CheckSpec, TaskSpec } from "../tasks/types.ts";
import {
  compositeBase,
  compositeScore,
  heldWeight,
  isPass,
  PAPER_ZERO_ROUNDS_DECAY,
  stepDecay,
} from "./score.ts";
import type { CheckResult } from "./types.ts";

/**
 * `--scoring paper` (docs/SCORING.md "Paper scoring"): an attempt scored the way the paper scores
 * (§3.6, §4.5), derived from the checks our scoring already ran on it, by one mapping for every task:
 *
 * - checks the paper's validators do not have count as held: the effect ledger's ★ `effects` and
 *   "nothing else" (`holdingsUnchanged`);
 * - price bounds (`priceBounds`, `v3PriceBounds`) are the paper's slippage checks (§3.6, App. D.1
 *   "DEX swap … minOut"): they hold when a successful router call's bounds are within
 *   {@link PAPER_SLIPPAGE_PCT} % of the quote (or the task's own s, if wider), and never when no
 *   swap or liquidity call succeeded (a refusal or a reverted transaction gets no slippage points);
 * - an exact balance change (`tokenBalanceDelta`, `nativeBalanceDelta` compared with `=` and no
 *   tolerance of its own; also inside an `all`) holds within 2 % of the requested amount: the upper
 *   end of the 1–2 % the paper's transfer validators allow, where ours require the amount exactly;
 *   so does an exact change of a staked amount or reward (`stateDelta` reading `staked(…)` or
 *   `stakedReward(…)`: "staking and farming: small relative tolerance", App. D.1 Table 6);
 * - no ★ cap: an atomic score is the sum of the weights of the checks that hold;
 * - a composite's base is 100 when every check holds (and the attempt did not end with an error
 *   report or an integrity violation, as ours), times the paper implementation's decay
 *   min(1, K_opt / K_act) with K_act counted its way (App. D.2: every executed round, a reply that
 *   only submits included), 0 when K_act is 0.
 *
 * A failure before the checks (no module, sandbox or integrity violation, a send the node refused)
 * scores 0 either way, and so does an atomic refusal (`failure.code` `refused`): the paper has no
 * refusal, and a module that returns no transaction fails there before any validator runs. Never part of the default totals: results.json keeps it in
 * `instances[].paperScoring` and `summary.paperScoring`.
 */

/** The check kinds the paper's validators do not have (counted as held under paper scoring). */
export const NOT_IN_PAPER = new Set(["holdingsUnchanged"]);

/** Our price-bound checks, judged under paper scoring as the paper's slippage checks. */
export const PAPER_SLIPPAGE_CHECKS = new Set(["priceBounds", "v3PriceBounds"]);

/** The paper's slippage-style tolerance on swaps and liquidity, percent of the quote (§3.6: "commonly 5 %"). */
export const PAPER_SLIPPAGE_PCT = 5;

/** `stateDelta` reads whose exact changes the paper allows within {@link PAPER_AMOUNT_TOLERANCE_PCT} (staking and farming, App. D.1 Table 6). */
export const PAPER_STAKING_READ = /^(staked|stakedReward)\(/;

/** Balance-change checks whose exact amounts the paper allows within {@link PAPER_AMOUNT_TOLERANCE_PCT}. */
export const PAPER_AMOUNT_CHECKS = new Set(["tokenBalanceDelta", "nativeBalanceDelta"]);

/** The paper's tolerance on transfer amounts, percent of the requested amount (§3.6: 1–2 %). */
export const PAPER_AMOUNT_TOLERANCE_PCT = 2;

// An exact comparison as src/validators/compare.ts describes it, without a tolerance of its own.
const EXACT_DELTA = /^Δ .*: expected = (-?\d+), actual (-?\d+)$/;

/** Whether a failed exact balance change is within the paper's tolerance of what was expected. */
function withinPaperTolerance(detail: string): boolean {
  const m = EXACT_DELTA.exec(detail);
  if (!m) return false;
  const expected = BigInt(m[1]!);
  const off = BigInt(m[2]!) - expected;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  return abs(off) * 100n <= abs(expected) * BigInt(PAPER_AMOUNT_TOLERANCE_PCT);
}

// A price-bound check's detail (src/validators/prices/priceBounds.ts, v3Bounds.ts): the slippage, then
// each failed bound as "<fn>: <what> <actual> < <required>" (V2) or "<what> <actual> > <required>" (V3).
const BOUND_DETAIL = /^s = ([\d.]+) %: (.*)$/;
const FAILED_BOUND = /^(?:\w+: )?.* (\d+) ([<>]) (\d+)$/;

/**
 * Whether a price-bound check that failed ours holds as the paper's slippage check: every failed
 * bound is a bound (not a wrong offer or a missing quote) and holds at {@link PAPER_SLIPPAGE_PCT} %:
 * a minimum required at (1 − s) of the quote is required at (1 − 5 %) instead, a maximum at (1 + 5 %).
 */
function withinPaperSlippage(detail: string): boolean {
  const m = BOUND_DETAIL.exec(detail);
  if (!m) return false;
  const ours = Number(m[1]) / 100;
  const paper = Math.max(ours, PAPER_SLIPPAGE_PCT / 100);
  // In millionths, so the bigint arithmetic stays exact to a wei or so.
  const ppm = (x: number) => BigInt(Math.round(x * 1_000_000));
  return m[2]!.split("; ").every((problem) => {
    const b = FAILED_BOUND.exec(problem);
    if (!b) return false;
    const actual = BigInt(b[1]!);
    const required = BigInt(b[3]!);
    return b[2] === "<"
      ? actual >= (required * ppm(1 - paper)) / ppm(1 - ours)
      : actual <= (required * ppm(1 + paper)) / ppm(1 + ours);
  });
}

/** Whether a check kind's exact change the paper allows within {@link PAPER_AMOUNT_TOLERANCE_PCT}. */
const paperToleratesAmount = (spec: CheckSpec) =>
  PAPER_AMOUNT_CHECKS.has(spec.check) ||
  (spec.check === "stateDelta" && PAPER_STAKING_READ.test(String(spec.args?.read ?? "")));

/** Whether a sub-check (by its spec) holds under paper scoring, given our verdict and detail. */
function heldByPaper(spec: CheckSpec, passed: boolean, detail: string): boolean {
  if (passed || NOT_IN_PAPER.has(spec.check)) return true;
  if (PAPER_SLIPPAGE_CHECKS.has(spec.check)) return withinPaperSlippage(detail);
  if (paperToleratesAmount(spec)) return withinPaperTolerance(detail);
  if (spec.check !== "all") return false;
  // `all` reports each part as "✓ detail" or "✗ detail", joined by "; " (src/validators/registry.ts).
  const subs = (spec.args?.checks ?? []) as CheckSpec[];
  const parts = detail.split("; ");
  return (
    parts.length === subs.length &&
    parts.every((p, i) => p.startsWith("✓ ") || heldByPaper(subs[i]!, false, p.replace(/^✗ /, "")))
  );
}

/** One of our check results as paper scoring judges it (`detail` says where it differs from ours). */
function paperCheck(spec: CheckSpec | undefined, c: CheckResult): CheckResult {
  if (!spec)
    return {
      ...c,
      passed: true,
      detail: `not one of the paper's checks, counted as held (ours: ${c.detail})`,
    };
  if (c.passed) return c;
  if (NOT_IN_PAPER.has(spec.check))
    return {
      ...c,
      passed: true,
      detail: `not one of the paper's checks, counted as held (ours: ${c.detail})`,
    };
  if (!heldByPaper(spec, false, c.detail)) return c;
  const tolerance = PAPER_SLIPPAGE_CHECKS.has(spec.check)
    ? `${PAPER_SLIPPAGE_PCT} % slippage`
    : `${PAPER_AMOUNT_TOLERANCE_PCT} %`;
  return { ...c, passed: true, detail: `within the paper's ${tolerance} (ours: ${c.detail})` };
}

/** What paper scoring reads of an attempt our scoring judged (an instance result of results.json). */
export type JudgedAttempt = {
  /** The task's checks in spec order, then the effect ledger's. */
  checks: readonly CheckResult[];
  failure: { class: string; code?: string | undefined } | null;
  composite?:
    | {
        kOpt: number;
        kAct: number;
        endedBy: string;
        /** Every round the attempt ran, counted in our K_act or not (a reply that only submits). */
        rounds?: readonly unknown[] | undefined;
      }
    | undefined;
};

/**
 * K_act as the paper counts it (App. D.2: "the number of executed rounds, including retries and
 * query rounds"): every round the attempt ran, a reply that only submits included; our `kAct` when
 * the rounds are not recorded.
 */
export function paperKAct(composite: NonNullable<JudgedAttempt["composite"]>): number {
  return composite.rounds ? composite.rounds.length : composite.kAct;
}

/** An attempt as the paper scores it (results.json `instances[].paperScoring`). */
export type PaperScore = {
  /** 0–100: the weights of the checks that hold (atomic), base × decay (composite). */
  score: number;
  /** score ≥ 60. */
  passed: boolean;
  /** Each check as paper scoring judged it (`detail` says where it differs from ours). */
  checks: CheckResult[];
};

/** The paper's score of an attempt our scoring judged (`result`, of a task of `spec`), beside ours. */
export function paperScoring(result: JudgedAttempt, spec: Pick<TaskSpec, "checks" | "split">): PaperScore {
  const checks = result.checks.map((c, i) => paperCheck(spec.checks[i], c));
  const failedBefore =
    result.failure !== null &&
    (result.failure.class !== "checks_failed" ||
      (spec.split === "atomic" && result.failure.code === "refused"));
  const held = checks.every((c) => c.passed);
  let score: number;
  if (failedBefore) score = 0;
  else if (spec.split === "composite") {
    const c = result.composite!;
    // An integrity violation failed before the checks (0 above); the paper's tasks expect no refusal,
    // so any error report ends with base 0.
    const base = compositeBase({
      checksHold: held,
      errorReport: c.endedBy === "error_report",
      refusalExpected: false,
      integrityViolation: false,
    });
    score = compositeScore(base, stepDecay(c.kOpt, paperKAct(c), PAPER_ZERO_ROUNDS_DECAY));
  } else score = heldWeight(checks);
  return { score, passed: isPass(score), checks };
}
