import { describe, expect, test } from "vitest";
import { paperScoring } from "../src/validators/paperScoring.ts";
import {
  atomicScore,
  CRITICAL_CAP,
  compositeBase,
  compositeFailureCode,
  compositeScore,
  failedChecksReason,
  heldWeight,
  isPass,
  OUR_ZERO_ROUNDS_DECAY,
  PAPER_ZERO_ROUNDS_DECAY,
  PASS_THRESHOLD,
  stepDecay,
} from "../src/validators/score.ts";
import type { CheckResult } from "../src/validators/types.ts";

// The scoring rules pinned to today's numbers (docs/SCORING.md "Weights", "★ checks", "Composite
// tasks", "Totals", "Paper scoring"): each expectation fails if a rule moves by one point.

const check = (name: string, weight: number, passed: boolean, critical = false): CheckResult => ({
  name,
  weight,
  critical,
  passed,
  detail: passed ? "ok" : `${name} failed`,
});

/** The paper's "typical" transaction task: ok 30, to 20, sel 20, ★ effect 30, then ★ effects (weight 0). */
const typical = (held: { ok: boolean; to: boolean; sel: boolean; effect: boolean; effects: boolean }) => [
  check("ok", 30, held.ok),
  check("to", 20, held.to),
  check("sel", 20, held.sel),
  check("effect", 30, held.effect, true),
  check("effects", 0, held.effects, true),
];
const all = { ok: true, to: true, sel: true, effect: true, effects: true };

describe('atomic score (docs/SCORING.md "Weights", "★ checks")', () => {
  test("the sum of the weights of the checks that hold", () => {
    expect(atomicScore(typical(all))).toBe(100);
    expect(atomicScore(typical({ ...all, sel: false }))).toBe(80);
    expect(atomicScore(typical({ ...all, to: false, sel: false }))).toBe(60);
    expect(atomicScore([])).toBe(0);
  });

  test("a failed ★ check caps it at 50, below the pass mark", () => {
    expect(CRITICAL_CAP).toBe(50);
    // A call to the right function with the wrong amount: 70 uncapped, 50 capped.
    expect(heldWeight(typical({ ...all, effect: false }))).toBe(70);
    expect(atomicScore(typical({ ...all, effect: false }))).toBe(50);
    // The effect ledger's ★ check weighs 0 and still caps: 100 → 50.
    expect(atomicScore(typical({ ...all, effects: false }))).toBe(50);
    // Below the cap the cap changes nothing.
    expect(atomicScore(typical({ ok: false, to: true, sel: false, effect: false, effects: true }))).toBe(20);
    // A failed check that is not ★ does not cap.
    expect(atomicScore([check("a", 70, true), check("b", 30, false)])).toBe(70);
  });

  test("heldWeight is the paper's atomic score: no cap", () => {
    expect(heldWeight(typical({ ...all, effect: false, effects: false }))).toBe(70);
    expect(heldWeight(typical(all))).toBe(100);
  });
});

describe('pass (docs/SCORING.md "Totals")', () => {
  test("at 60 and above", () => {
    expect(PASS_THRESHOLD).toBe(60);
    expect(isPass(60)).toBe(true);
    expect(isPass(59.99)).toBe(false);
    expect(isPass(100)).toBe(true);
    expect(isPass(0)).toBe(false);
  });
});

describe('composite base (docs/SCORING.md "Composite tasks")', () => {
  const clean = { checksHold: true, errorReport: false, refusalExpected: false, integrityViolation: false };
  test("100 iff every check holds", () => {
    expect(compositeBase(clean)).toBe(100);
    expect(compositeBase({ ...clean, checksHold: false })).toBe(0);
  });

  test("an error report ends with base 0, unless the task expects a refusal", () => {
    expect(compositeBase({ ...clean, errorReport: true })).toBe(0);
    expect(compositeBase({ ...clean, errorReport: true, refusalExpected: true })).toBe(100);
    // On a judgement task the checks still decide.
    expect(compositeBase({ ...clean, errorReport: true, refusalExpected: true, checksHold: false })).toBe(0);
    // Expecting a refusal changes nothing when the attempt did not refuse.
    expect(compositeBase({ ...clean, refusalExpected: true })).toBe(100);
  });

  test("an integrity violation is base 0 whatever the checks say", () => {
    expect(compositeBase({ ...clean, integrityViolation: true })).toBe(0);
    expect(
      compositeBase({ ...clean, integrityViolation: true, errorReport: true, refusalExpected: true }),
    ).toBe(0);
  });
});

describe('step decay (docs/SCORING.md "Composite tasks", "Paper scoring")', () => {
  test("min(1, K_opt / K_act)", () => {
    expect(stepDecay(3, 1, OUR_ZERO_ROUNDS_DECAY)).toBe(1); // fewer rounds than optimal: no bonus
    expect(stepDecay(3, 3, OUR_ZERO_ROUNDS_DECAY)).toBe(1);
    expect(stepDecay(3, 4, OUR_ZERO_ROUNDS_DECAY)).toBe(0.75);
    expect(stepDecay(2, 6, PAPER_ZERO_ROUNDS_DECAY)).toBeCloseTo(1 / 3, 15);
    expect(stepDecay(1, 1, PAPER_ZERO_ROUNDS_DECAY)).toBe(1);
  });

  test("K_act 0: 1 under ours, 0 under the paper's implementation", () => {
    expect(OUR_ZERO_ROUNDS_DECAY).toBe(1);
    expect(PAPER_ZERO_ROUNDS_DECAY).toBe(0);
    expect(stepDecay(3, 0, OUR_ZERO_ROUNDS_DECAY)).toBe(1);
    expect(stepDecay(3, 0, PAPER_ZERO_ROUNDS_DECAY)).toBe(0);
  });
});

describe('composite score (docs/SCORING.md "Composite tasks")', () => {
  test("base × decay, rounded to two decimals", () => {
    expect(compositeScore(100, 1)).toBe(100);
    expect(compositeScore(0, 1)).toBe(0);
    expect(compositeScore(100, stepDecay(2, 3, OUR_ZERO_ROUNDS_DECAY))).toBe(66.67);
    expect(compositeScore(100, stepDecay(1, 3, OUR_ZERO_ROUNDS_DECAY))).toBe(33.33);
    expect(compositeScore(100, stepDecay(5, 7, OUR_ZERO_ROUNDS_DECAY))).toBe(71.43);
    expect(compositeScore(100, stepDecay(3, 4, OUR_ZERO_ROUNDS_DECAY))).toBe(75);
    // A decay that lands a score just below the pass mark stays below it.
    expect(isPass(compositeScore(100, stepDecay(3, 6, OUR_ZERO_ROUNDS_DECAY)))).toBe(false);
    expect(isPass(compositeScore(100, stepDecay(3, 5, OUR_ZERO_ROUNDS_DECAY)))).toBe(true);
  });
});

describe("a composite's failure", () => {
  test("code: budget_exhausted or error_report, else none", () => {
    expect(compositeFailureCode("budget")).toBe("budget_exhausted");
    expect(compositeFailureCode("error_report")).toBe("error_report");
    expect(compositeFailureCode("submit")).toBeUndefined();
    expect(compositeFailureCode("plan_done")).toBeUndefined();
  });

  test("reason: the failed checks, name: detail joined by |", () => {
    expect(failedChecksReason(typical({ ...all, to: false, effect: false }))).toBe(
      "to: to failed | effect: effect failed",
    );
    expect(failedChecksReason(typical(all))).toBe("");
  });
});

describe('paper scoring\'s composite (docs/SCORING.md "Paper scoring")', () => {
  const spec = { split: "composite" as const, checks: [{ check: "txSucceeded", weight: 100 }] } as Parameters<
    typeof paperScoring
  >[1];
  const attempt = (kOpt: number, kAct: number, endedBy: string, passed = true) =>
    paperScoring(
      { checks: [check("ok", 100, passed)], failure: null, composite: { kOpt, kAct, endedBy } },
      spec,
    );

  test("base × min(1, K_opt / K_act), rounded; decay 0 at K_act 0", () => {
    expect(attempt(2, 2, "submit")).toMatchObject({ score: 100, passed: true });
    expect(attempt(2, 3, "submit")).toMatchObject({ score: 66.67, passed: true });
    expect(attempt(2, 0, "submit")).toMatchObject({ score: 0, passed: false });
    expect(attempt(2, 2, "submit", false).score).toBe(0);
  });

  test("any error report is base 0", () => {
    expect(attempt(2, 2, "error_report").score).toBe(0);
  });

  test("its atomic score has no ★ cap", () => {
    const r = paperScoring(
      {
        checks: [check("ok", 70, true), check("effect", 30, false, true)],
        failure: { class: "checks_failed" },
      },
      {
        split: "atomic",
        checks: [
          { check: "txSucceeded", weight: 70 },
          { check: "txTo", weight: 30 },
        ],
      } as Parameters<typeof paperScoring>[1],
    );
    expect(r).toMatchObject({ score: 70, passed: true });
  });
});
