import path from "node:path";
import { describe, expect, test } from "vitest";
import { readCases } from "../src/tasks/cases.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";
import { useAttempts } from "./helpers/attempts.ts";
import { caseModel } from "./helpers/cases.ts";

// The conditional routing task (route_sell_if_fair) must be executed at some seeds and refused at
// others. tests/tasks/cases.test.ts runs wrong answers at seed 1 only, where the sale is allowed; the
// wrong answers that only show on the refusing branch (always executing, gating on the spot price)
// live in tests/routing/<task>/cases/ and are run here at seed 2, where the best quote is below the
// user's floor. The reference's refusal there is checked too, so the seed really is a refusing one.
const attempt = useAttempts(1);
const TASK = "route_sell_if_fair";
const REFUSING_SEED = 2;

describe(`${TASK} at seed ${REFUSING_SEED} (the best quote is below 99 % of the feed value)`, () => {
  test("the reference refuses and scores 100", async () => {
    const result = await attempt(TASK, "reference", REFUSING_SEED);
    expect(result.refusal?.reason).toBeTruthy();
    expect(result.score).toBe(100);
  });
  for (const c of readCases(path.join(PROJECT_ROOT, "tests/routing", TASK), "atomic"))
    test(`${c.name}: executing instead of refusing scores below 60, failing the gate`, async () => {
      const result = await attempt(TASK, caseModel(c), REFUSING_SEED);
      expect(result.score).toBeLessThan(60);
      expect(result.checks.find((x) => x.name === "gate")?.passed).toBe(false);
    });
});
