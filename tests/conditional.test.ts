import { describe, expect, test } from "vitest";
import type { ModelClient } from "../src/models/types.ts";
import { useAttempts } from "./helpers/attempts.ts";

/** A model that answers with one fixed module (a real ModelClient, as a user-defined one). */
const fixed = (body: string): ModelClient => ({
  id: "fixed",
  generate: async () => ({
    text: `\`\`\`ts\nimport { ethers } from "ethers";\nexport async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {\n${body}\n}\n\`\`\``,
  }),
});
const refuse = fixed('return { refuse: { reason: "too risky" } };');
// Borrows the task's x without looking at the rule.
const borrow = (x: string) =>
  fixed(
    `const i = new ethers.Interface(["function borrow(uint256 amount)"]);\nreturn { to: deployedContracts.mm_wbtc_usdc, data: i.encodeFunctionData("borrow", [ethers.parseUnits("${x}", 6)]) };`,
  );

describe("branch: a rule read at pre decides which checks must hold (hard split, run-time judgement)", () => {
  const attempt = useAttempts(1);
  const task = "mm_borrow_if_health_factor_holds";

  test("where the rule fails (seed 1) refusing scores 100 and borrowing scores 0", async () => {
    const refused = await attempt(task, refuse, 1);
    expect(refused).toMatchObject({ score: 100, failure: null, refusal: { reason: "too risky" } });
    expect(refused.checks.find((c) => c.name === "decision")?.detail).toMatch(/^whenFalse/);
    const executed = await attempt(task, borrow("22400.34"), 1);
    expect(executed.transaction?.status).toBe("success");
    expect(executed.score).toBe(0);
  });

  test("where the rule holds (seed 2) borrowing scores 100 and refusing scores 0", async () => {
    const executed = await attempt(task, borrow("21865.5"), 2);
    expect(executed).toMatchObject({ score: 100, failure: null });
    expect(executed.checks.find((c) => c.name === "decision")?.detail).toMatch(/^whenTrue/);
    const refused = await attempt(task, refuse, 2);
    expect(refused.score).toBe(0);
  });
});
