import { describe, expect, test } from "vitest";
import { referenceModel } from "../src/models/reference.ts";
import type { ModelClient } from "../src/models/types.ts";
import { runAtomicAttempt } from "../src/protocol/atomic.ts";
import { chainClients } from "../src/protocol/chain.ts";
import { instantiate } from "../src/tasks/instantiate.ts";
import { createAnvilPool } from "../src/world/pool.ts";
import { taskById, world } from "./helpers/attempts.ts";

/** A model that always answers with `text` (a real ModelClient, as a user-defined model would be). */
const fixed = (text: string): ModelClient => ({ id: "fixed", generate: async () => ({ text }) });
const module = (body: string, imports = "") =>
  `\`\`\`ts\n${imports}\nexport async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {\n${body}\n}\n\`\`\``;
const rpcCall = (method: string, params: string) =>
  `await fetch(providerUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "${method}", params: ${params} }) });`;

async function attemptOn(url: string, taskId: string, text: string, timeoutMs?: number) {
  const task = taskById.get(taskId)!;
  const instance = await instantiate(task.spec, { runSeed: 1, world });
  let resets = 0;
  const chain = { url, reset: async () => void resets++ };
  const result = await runAtomicAttempt({ task, instance, model: fixed(text), world, chain, timeoutMs });
  return { result, resets };
}

describe("hostile or malformed model code scores 0 and is recorded", () => {
  const pool = createAnvilPool({ size: 1, world });
  const started = pool.start();
  const withChain = async <T>(fn: (url: string) => Promise<T>) => {
    await started;
    const lease = await pool.lease();
    try {
      return await fn(lease.url);
    } finally {
      lease.release();
    }
  };

  test.each([
    ["anvil_setBalance", `["${world.agent.address}", "0xffffffffffffffffffff"]`],
    [
      "eth_sendTransaction",
      `[{ "from": "${world.agent.address}", "to": "${world.rich.address}", "value": "0x1" }]`,
    ],
  ])("refuses %s through providerUrl and records it", async (method, params) => {
    await withChain(async (url) => {
      const before = await chainClients(url, world).public.getBalance({ address: world.agent.address });
      const { result } = await attemptOn(
        url,
        "bnb_transfer_basic",
        module(`${rpcCall(method, params)}\nreturn { to: "{{to}}", value: 1n };`),
      );
      expect(result.score).toBe(0);
      expect(result.failure?.class).toBe("integrity_violation");
      expect(result.integrityViolations).toEqual([
        expect.objectContaining({ kind: "forbidden_rpc_method", method }),
      ]);
      expect(result.transaction).toBeUndefined();
      expect(await chainClients(url, world).public.getBalance({ address: world.agent.address })).toBe(before);
    });
  });

  test.each([
    [
      "reads a file",
      `return { to: readFileSync("/etc/hostname", "utf8") };`,
      `import { readFileSync } from "node:fs";`,
      "sandbox_violation",
    ],
    ["reads process.env", "return { to: process.env.OPENAI_API_KEY };", "", "sandbox_violation"],
    [
      "spawns a process",
      `return { to: execSync("id").toString() };`,
      `import { execSync } from "node:child_process";`,
      "sandbox_violation",
    ],
    ["loops forever", "for (;;) {}", "", "timeout"],
  ])("stops a module that %s", async (_what, body, imports, failureClass) => {
    await withChain(async (url) => {
      const { result } = await attemptOn(url, "bnb_transfer_basic", module(body, imports), 3_000);
      expect(result.score).toBe(0);
      expect(result.failure?.class).toBe(failureClass);
    });
  });

  test.each([
    ["no code block", "I would send the BNB with ethers.", "no_code_block"],
    ["an auto-pass shape of the paper's harness", module("return { success: true };"), "missing_to"],
    [
      "a query wrapper on a transaction task",
      module('return { type: "QUERY_RESULT", query_result: { ok: true } };'),
      "missing_to",
    ],
    ["a decimal-point value", module('return { to: "{{to}}", value: "0.01" };'), "not_serialisable"],
  ])("classifies %s as schema_invalid", async (_what, text, code) => {
    await withChain(async (url) => {
      const { result } = await attemptOn(url, "bnb_transfer_basic", text);
      expect(result).toMatchObject({ score: 0, passed: false, failure: { class: "schema_invalid", code } });
    });
  });

  test("counts 'ethers is not defined' as a runtime error", async () => {
    await withChain(async (url) => {
      const { result } = await attemptOn(
        url,
        "bnb_transfer_basic",
        module('return { to: "{{to}}", value: ethers.parseEther("{{x}}") };'),
      );
      expect(result.failure).toMatchObject({ class: "runtime_error" });
      expect(result.failure?.reason).toContain("ethers is not defined");
    });
  });
});

describe("isolation", () => {
  test("a revert after a task restores the world exactly", async () => {
    const pool = createAnvilPool({ size: 1, world });
    await pool.start();
    try {
      const snapshot = async (url: string) => {
        const c = chainClients(url, world);
        const block = await c.public.getBlock();
        return {
          number: block.number,
          timestamp: block.timestamp,
          agentBnb: await c.public.getBalance({ address: world.agent.address }),
          agentNonce: await c.public.getTransactionCount({ address: world.agent.address }),
          usdtSlot: await c.public.getStorageAt({ address: world.contracts.usdt, slot: "0x2" }),
          agentUsdt: await c.public.readContract({
            address: world.contracts.usdt,
            abi: [
              {
                type: "function",
                name: "balanceOf",
                stateMutability: "view",
                inputs: [{ type: "address" }],
                outputs: [{ type: "uint256" }],
              },
            ],
            functionName: "balanceOf",
            args: [world.agent.address],
          }),
        };
      };
      let lease = await pool.lease();
      const clean = await snapshot(lease.url);
      const task = taskById.get("erc20_transfer_fixed")!;
      const instance = await instantiate(task.spec, { runSeed: 7, world });
      const result = await runAtomicAttempt({ task, instance, model: referenceModel(), world, chain: lease });
      expect(result.score).toBe(100);
      expect((await snapshot(lease.url)).agentUsdt).not.toBe(clean.agentUsdt);
      lease.release();
      lease = await pool.lease(); // the one instance, reverted to the snapshot before it is handed out
      expect(await snapshot(lease.url)).toEqual(clean);
      lease.release();
    } finally {
      await pool.stop();
    }
  });
});
