import path from "node:path";
import { describe, expect, test } from "vitest";
import { atomicPrompt, compositePrompt } from "../src/protocol/prompt.ts";
import { instantiate } from "../src/tasks/instantiate.ts";
import { taskById, useAttempts, world } from "./helpers/attempts.ts";

// The rules a model plays by are in its prompt, each once (docs/ARCHITECTURE.md "Prompt"); the harness follows
// them (the composite ones: tests/composite.test.ts "the composite rules the prompt states").
const attempt = useAttempts(1);
const scripted = (scenario: string) => `scripted:${path.join(import.meta.dirname, "scripted", scenario)}`;

/** Each rule by a phrase only its statement holds. */
const SHARED_RULES = [
  "Math.floor(Date.now() / 1000) + 1200",
  "the amount the pool will take of it at current reserves × (1 − s)",
  "nothing may be sent to, or approved for, anyone the request does not involve",
  "reserve × liquidity / totalSupply",
  "amountOutMin must be ≥ the router's on-chain quote × (1 − s)",
  "Where a task states no slippage, s is 1 %",
  "checked against the chain, however you obtained it",
  "scores 0. Other methods the endpoint does not serve just return a JSON-RPC error",
  "0xcA11bde05977b3631167028862bE2a173976CA11 — Multicall3",
];
const COMPOSITE_RULES = [
  "even if that code fails or its transaction reverts",
  "Answers returned in earlier rounds are NOT carried over",
  'A reply holding only {"submit": ...} does not count',
  "with a code block or alone",
];

const count = (text: string, phrase: string) => text.split(phrase).length - 1;

describe("the prompt states each rule once", () => {
  test.each(["swap_exact_bnb_for_tokens", "query_token_metadata"])(
    "atomic %s: every shared rule exactly once, no composite rule",
    async (id) => {
      const task = taskById.get(id)!;
      const instance = await instantiate(task.spec, { runSeed: 1, epoch: 0, world });
      const text = atomicPrompt(instance, task.spec.answer, world)
        .map((m) => m.content)
        .join("\n");
      for (const phrase of SHARED_RULES) expect(count(text, phrase), phrase).toBe(1);
      for (const phrase of COMPOSITE_RULES) expect(count(text, phrase), phrase).toBe(0);
    },
  );

  test("composite: every shared and composite rule exactly once", async () => {
    const task = taskById.get("composite_query_erc20_transfer_verify")!;
    const instance = await instantiate(task.spec, { runSeed: 1, epoch: 0, world });
    const text = compositePrompt(instance, task.spec.answer, world, 4)
      .map((m) => m.content)
      .join("\n");
    for (const phrase of [...SHARED_RULES, ...COMPOSITE_RULES]) expect(count(text, phrase), phrase).toBe(1);
  });
});

describe("the harness follows the stated deadline rule", () => {
  test("a swap with the standard wall-clock deadline (Date.now()/1000 + 1200, far ahead of the world's clock) scores 100", async () => {
    const r = await attempt("swap_exact_bnb_for_tokens", scripted("prompt_rules"));
    const chainNow = world.snapshot.timestamp;
    expect(Date.now() / 1000 - chainNow).toBeGreaterThan(3600);
    expect(r).toMatchObject({ score: 100, failure: null });
  });
});

test("only a task declaring wallet.signTypedData is told that the endpoint signs typed data, atomic and composite", async () => {
  const rule = "eth_signTypedData_v4 for agentAddress on a chain-56 domain";
  for (const id of ["permit_pay_via_router_multicall", "composite_permit2_pay_then_revoke"]) {
    const task = taskById.get(id)!;
    expect(task.spec.wallet?.signTypedData).toBe(true);
    const instance = await instantiate(task.spec, { runSeed: 1, epoch: 0, world });
    const mode = { set: task.spec.set, signTypedData: task.spec.wallet?.signTypedData };
    const prompt =
      task.spec.split === "atomic"
        ? atomicPrompt(instance, task.spec.answer, world, mode)
        : compositePrompt(instance, task.spec.answer, world, 4, mode);
    expect(prompt[1]!.content.split(rule).length - 1).toBe(1);
  }
  for (const id of ["multicall3_pay_two_recipients", "erc20_permit", "swap_exact_tokens_for_tokens"]) {
    const task = taskById.get(id)!;
    expect(task.spec.wallet).toBeUndefined();
    const prompt = atomicPrompt(
      await instantiate(task.spec, { runSeed: 1, epoch: 0, world }),
      task.spec.answer,
      world,
      { set: task.spec.set },
    );
    expect(prompt[1]!.content).not.toContain(rule);
  }
});
