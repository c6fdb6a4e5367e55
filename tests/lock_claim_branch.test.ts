import { describe, expect, test } from "vitest";
import type { ModelClient } from "../src/models/types.ts";
import { compileCheck } from "../src/validators/registry.ts";
import { CheckArgsError } from "../src/validators/types.ts";
import { useAttempts } from "./helpers/attempts.ts";

const scripted = (text: string): ModelClient => ({ id: "fixed", generate: async () => ({ text }) });
const module = (body: string) =>
  `\`\`\`ts\nexport async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {\n${body}\n}\n\`\`\``;
const refusal = module('return { refuse: { reason: "not claimable" } };');
const claim = module('return { to: deployedContracts.usdc_locker, data: "0x4e71d92d" };');

// find_lock_claim_or_refuse picks its scenario per seed: seed 1 = claimable, seed 4 = still locked.
describe("branch: a rule decided at run time (hard split, conditional judgement)", () => {
  const attempt = useAttempts(1);

  test("where the rule allows it, claiming scores 100 and refusing scores 0", async () => {
    expect(await attempt("find_lock_claim_or_refuse", scripted(claim), 1)).toMatchObject({ score: 100 });
    const refused = await attempt("find_lock_claim_or_refuse", scripted(refusal), 1);
    expect(refused.score).toBe(0);
    expect(refused.checks.find((c) => c.name === "ruleFollowed")?.detail).toMatch(/^whenTrue/);
  });

  test("where the rule forbids it, refusing scores 100 and claiming (a revert) scores 0", async () => {
    expect(await attempt("find_lock_claim_or_refuse", scripted(refusal), 4)).toMatchObject({
      score: 100,
      refusal: { reason: "not claimable" },
    });
    expect(await attempt("find_lock_claim_or_refuse", scripted(claim), 4)).toMatchObject({ score: 0 });
  });

  test("a side with no checks is rejected, naming the field", () => {
    const compile = { parameterNames: new Set<string>(), answerFields: new Set<string>() };
    const args = { read: "1", expected: "1", whenTrue: [{ check: "txSucceeded" }] };
    expect(() => compileCheck({ check: "branch", args }, compile)).toThrow(CheckArgsError);
    try {
      compileCheck({ check: "branch", args: { ...args, whenFalse: [] } }, compile);
      expect.unreachable();
    } catch (error) {
      expect((error as CheckArgsError).field).toBe("whenFalse");
    }
  });
});
