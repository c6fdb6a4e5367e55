import path from "node:path";
import { describe, expect, test } from "vitest";
import { useAttempts } from "./helpers/attempts.ts";

// The composite protocol (docs/SCORING.md "Composite tasks") driven by scripted conversations in tests/scripted/<scenario>/.
const attempt = useAttempts(2);
const scripted = (scenario: string) => `scripted:${path.join(import.meta.dirname, "scripted", scenario)}`;
const WRAP = "composite_wrap_unwrap_cycle"; // K_opt 2, budget 4
const SWAP = "composite_approve_swap_tokens"; // K_opt 2, budget 4

describe.concurrent("composite protocol", () => {
  test("the gold conversation scores 100 in K_opt rounds", async () => {
    const r = await attempt(WRAP, "reference", 1);
    expect(r).toMatchObject({
      score: 100,
      passed: true,
      failure: null,
      composite: { kOpt: 2, kAct: 2, kFailed: 0, kQuery: 0, base: 100, endedBy: "submit" },
    });
  });

  test("submitting at once scores 0", async () => {
    const r = await attempt(WRAP, scripted("submit_at_once"));
    expect(r).toMatchObject({ score: 0, composite: { kAct: 0, base: 0, endedBy: "submit" } });
    expect(r.checks.find((c) => c.name === "wrapped")?.passed).toBe(false);
  });

  test("an unrelated successful transaction, then submit, scores 0", async () => {
    const r = await attempt(WRAP, scripted("unrelated_tx"));
    expect(r.composite?.rounds[0]).toMatchObject({ kind: "transaction", transaction: { status: "success" } });
    expect(r).toMatchObject({ score: 0, composite: { kAct: 1, base: 0 } });
  });

  test("the right work in 2 × K_opt rounds scores 50 (step-efficiency decay)", async () => {
    const r = await attempt(WRAP, scripted("slow_but_right"));
    expect(r).toMatchObject({
      score: 50,
      composite: { kOpt: 2, kAct: 4, kQuery: 2, kFailed: 0, base: 100, decay: 0.5 },
    });
    expect(r.checks.every((c) => c.passed)).toBe(true);
  });

  test("leaving out the approve and never recovering scores 0", async () => {
    const r = await attempt(SWAP, scripted("no_approve"));
    expect(r.composite?.rounds.slice(0, 2).map((x) => x.kind)).toEqual(["failed", "failed"]);
    expect(r.composite?.rounds[0]?.feedback).toMatch(/REVERTED/);
    expect(r).toMatchObject({ score: 0, composite: { kAct: 2, kFailed: 2, base: 0, endedBy: "submit" } });
  });

  test("recovering from a failed round still passes, decayed by the extra round", async () => {
    const r = await attempt(SWAP, scripted("recovers"));
    expect(r).toMatchObject({ composite: { kAct: 3, kFailed: 1, base: 100 } });
    expect(r.score).toBeCloseTo(66.67, 2);
  });

  test("an error report on a feasible task scores 0", async () => {
    const r = await attempt(WRAP, scripted("error_report"));
    expect(r).toMatchObject({
      score: 0,
      composite: { kAct: 1, base: 0, endedBy: "error_report" },
      failure: { code: "error_report" },
    });
  });

  test("running out of rounds ends the attempt cleanly with the checks recorded", async () => {
    const r = await attempt(WRAP, scripted("out_of_rounds"));
    expect(r).toMatchObject({
      score: 0,
      composite: { kAct: 4, kQuery: 4, budget: 4, endedBy: "budget" },
      failure: { code: "budget_exhausted" },
    });
    expect(r.checks.map((c) => [c.name, c.passed])).toEqual([
      ["wrapped", false],
      ["wbnb unchanged", true],
      ["bnb back", true],
      ["holdingsUnchanged", true],
      ["effects", true],
    ]);
  });

  test("a forbidden RPC in any round scores 0 and is recorded", async () => {
    const r = await attempt(WRAP, scripted("cheats"));
    expect(r).toMatchObject({
      score: 0,
      failure: { class: "integrity_violation" },
      composite: { endedBy: "integrity_violation" },
    });
    expect(r.integrityViolations).toEqual([expect.objectContaining({ method: "anvil_setBalance" })]);
  });

  test("'ethers is not defined' is a failed round, counted and flagged", async () => {
    const r = await attempt(WRAP, scripted("ethers_missing"));
    expect(r.composite?.rounds[0]?.feedback).toContain("ethers is not defined");
    expect(r).toMatchObject({ composite: { kAct: 3, kFailed: 1, base: 100, ethersNotDefined: true } });
    expect(r.score).toBeCloseTo(66.67, 2);
  });
});

// Each rule the composite system prompt states (src/protocol/prompt.ts COMPOSITE_ROLE), scored as
// stated (docs/ARCHITECTURE.md "Prompt"). composite_query_erc20_transfer_verify: K_opt 2, budget 4; the answer's
// two fields are checked against the chain before and after.
describe.concurrent("the composite rules the prompt states", () => {
  const QUERY_TRANSFER = "composite_query_erc20_transfer_verify";
  const rules = (scenario: string) => scripted(path.join("composite_rules", scenario));

  test("a reply holding only the control JSON is allowed, does not count as a round, and typed answer values that match the chain pass", async () => {
    const r = await attempt(QUERY_TRANSFER, rules("submit_only"));
    expect(r.composite?.rounds.map((x) => [x.kind, x.counted])).toEqual([
      ["answer", true],
      ["transaction", true],
      ["submit_only", false],
    ]);
    expect(r).toMatchObject({ score: 100, composite: { kAct: 2, base: 100, endedBy: "submit" } });
  });

  test("answer values are checked against the chain however they were obtained: a typed value that is wrong (the balance before, given as after) fails", async () => {
    const r = await attempt(QUERY_TRANSFER, rules("typed_wrong"));
    expect(r).toMatchObject({ score: 0, composite: { kAct: 2, base: 0, endedBy: "submit" } });
    expect(r.checks.filter((c) => !c.passed).map((c) => c.name)).toEqual(["usdt_balance_after_wei"]);
  });

  test("answers returned in earlier rounds are not carried into the submission", async () => {
    const r = await attempt(QUERY_TRANSFER, rules("no_carry"));
    expect(r.composite?.rounds[0]).toMatchObject({ kind: "answer" });
    expect(r.composite?.answer).not.toHaveProperty("usdt_balance_before_wei");
    expect(r).toMatchObject({ score: 0, composite: { kAct: 2, base: 0, endedBy: "submit" } });
    expect(r.checks.filter((c) => !c.passed).map((c) => c.name)).toEqual(["usdt_balance_before_wei"]);
  });

  test("a reply that cannot be parsed counts as a failed round (decayed), the protocol goes on", async () => {
    const r = await attempt(QUERY_TRANSFER, rules("unparseable_counts"));
    expect(r.composite?.rounds.map((x) => [x.kind, x.counted])).toEqual([
      ["failed", true],
      ["answer", true],
      ["transaction", true],
      ["submit_only", false],
    ]);
    expect(r.composite?.rounds[0]?.failure).toMatchObject({ class: "schema_invalid", code: "no_code_block" });
    expect(r).toMatchObject({ composite: { kAct: 3, kFailed: 1, base: 100, endedBy: "submit" } });
    expect(r.score).toBeCloseTo(66.67, 2);
  });

  test("a submit takes effect although its reply's transaction reverts: the attempt ends there, scored on the chain as it is", async () => {
    const r = await attempt(QUERY_TRANSFER, rules("submit_reverts"));
    expect(r.composite?.rounds).toHaveLength(1);
    expect(r.composite?.rounds[0]).toMatchObject({
      kind: "failed",
      counted: true,
      control: "submit",
      transaction: { status: "reverted" },
    });
    expect(r).toMatchObject({ score: 0, composite: { kAct: 1, kFailed: 1, base: 0, endedBy: "submit" } });
  });
});
