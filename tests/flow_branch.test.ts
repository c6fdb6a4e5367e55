import { describe, expect, test } from "vitest";
import type { ModelClient } from "../src/models/types.ts";
import { readGold } from "../src/tasks/gold.ts";
import { fillPlaceholders } from "../src/tasks/placeholders.ts";
import { taskById, useAttempts, world } from "./helpers/attempts.ts";
import { taskFolder } from "./helpers/cases.ts";

// flow_repay_then_withdraw_if_safe decides at run time (hard split, conditional workflows): seed 1 is on
// the withdraw side (the health factor after the repayment is ≥ the stated one), seed 2 on the report
// side. These conversations prove both sides of the `branch` check and that a refusal — the error control
// message or a module's { refuse } — is right only on the side the pre-state selects.
const ID = "flow_repay_then_withdraw_if_safe";
const task = taskById.get(ID)!;
const gold = readGold(taskFolder(task), "composite").reference!;
const module = (body: string) =>
  `\`\`\`ts\nimport { ethers } from "ethers";\n\nexport async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {\n${body}\n}\n\`\`\``;
const errorReport =
  '```json\n{"error": {"type": "refused", "message": "health factor below the stated one"}}\n```';
const submit = '```json\n{ "submit": true }\n```';
const readHealth = module(`
  const market = new ethers.Contract(deployedContracts.lend_wbnb, ["function healthFactor(address) view returns (uint256)"], new ethers.JsonRpcProvider(providerUrl));
  return { answer: { health_factor: String(await market.healthFactor(agentAddress)) } };`);

/** The gold plan and its four transactions (sell, approve, repay), then `tail` as the next rounds. */
const conversation = (...tail: string[]): ModelClient => ({
  id: "flow-branch",
  async generate({ instance, step, round }) {
    const texts = [gold.plan!, ...gold.rounds!.slice(0, 4), ...tail];
    const text = step === "plan" ? texts[0]! : texts[round!];
    if (text === undefined) throw new Error(`no response for round ${round}`);
    return { text: fillPlaceholders(text, instance, world) };
  },
});

describe(`${ID}: the branch the pre-state selects decides whether a refusal is right`, () => {
  const attempt = useAttempts(2);

  test("the seeds the cases use sit on different sides (1 withdraws, 2 reports)", async () => {
    const branch = task.spec.checks.find((c) => c.check === "branch")!;
    expect(branch).toBeDefined();
    const r1 = await attempt(ID, "reference", 1);
    const r2 = await attempt(ID, "reference", 2);
    expect(r1.checks.find((c) => c.name.startsWith("withdraw only"))!.detail).toMatch(/^whenTrue /);
    expect(r2.checks.find((c) => c.name.startsWith("withdraw only"))!.detail).toMatch(/^whenFalse /);
    expect([r1.score, r2.score]).toEqual([100, 100]);
    expect(r2.refusal?.reason).toMatch(/^refused: health factor/);
    expect(r2.composite?.endedBy).toBe("error_report");
  });

  test("reading the health factor, then the error control message: 100 on the report side, 0 on the withdraw side", async () => {
    const model = conversation(readHealth, errorReport);
    const report = await attempt(ID, model, 2);
    expect(report).toMatchObject({ score: 100, composite: { kAct: 6, kOpt: 6, endedBy: "error_report" } });
    const wrongSide = await attempt(ID, model, 1);
    expect(wrongSide.score).toBe(0);
    expect(wrongSide.checks.find((c) => c.name.startsWith("withdraw only"))).toMatchObject({ passed: false });
  });

  test("submitting without withdrawing or reporting (a silent skip) scores 0 on the report side", async () => {
    const r = await attempt(ID, conversation(submit), 2);
    expect(r.score).toBe(0);
    expect(r.checks.find((c) => c.name.startsWith("withdraw only"))!.detail).toMatch(/no refusal/);
  });

  test("withdrawing on the report side scores 0 even when the withdrawal succeeds", async () => {
    const withdrawSome = module(`
  const market = new ethers.Interface(["function withdraw(uint256 amount, address to) returns (uint256)"]);
  return { to: deployedContracts.lend_wbnb, data: market.encodeFunctionData("withdraw", [ethers.parseUnits("0.1", 18), agentAddress]) };`);
    const r = await attempt(ID, conversation(`${withdrawSome}\n\n${submit}`), 2);
    expect(r.composite?.rounds.at(-1)?.transaction?.status).toBe("success");
    expect(r.score).toBe(0);
  });

  test("a module's { refuse } ends a composite like the error control message and counts as its round", async () => {
    const r = await attempt(
      ID,
      conversation(module('return { refuse: { reason: "not safe" } };'), submit),
      1,
    );
    expect(r.composite).toMatchObject({ endedBy: "error_report", kAct: 5 });
    expect(r.composite?.rounds.at(-1)).toMatchObject({
      kind: "error_report",
      control: "error",
      counted: true,
    });
    expect(r.refusal).toEqual({ reason: "refused: not safe" });
    // seed 1 is the withdraw side: refusing there is wrong.
    expect(r.score).toBe(0);
  });
});
