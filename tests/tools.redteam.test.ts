import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getAddress, keccak256, parseEther, toHex } from "viem";
import { describe, expect, test } from "vitest";
import type { InstanceResult } from "../src/results/types.ts";
import { instantiate } from "../src/tasks/instantiate.ts";
import { displayValue } from "../src/tasks/placeholders.ts";
import { taskById, useAttempts, world } from "./helpers/attempts.ts";

// Red-team of `--protocol tools` (docs/PROTOCOLS.md): hostile or wrong tool-call scripts. The first
// three were holes when found (a state write nobody asked for before the transfer scored 100, a query
// answer plus a transaction scored 100, a 6,000-level answer threw): the atomic step decay and the
// argument limits close them; the last two prove properties that held.

const attempt = useAttempts(2);
const TOOLS = { protocol: "tools" } as const;
const dir = mkdtempSync(path.join(tmpdir(), "qb-tools-redteam-"));

/** A scripted tool-call model for one task: `turns` written to `DIR/<task-id>.tools.json`. */
const script = (name: string, taskId: string, turns: unknown) => {
  mkdirSync(path.join(dir, name), { recursive: true });
  writeFileSync(path.join(dir, name, `${taskId}.tools.json`), JSON.stringify(turns));
  return `scripted:${path.join(dir, name)}`;
};

/** An EOA no task involves. */
const STRANGER = getAddress(`0x${keccak256(toHex("questbench tools redteam: a stranger")).slice(-40)}`);

/** The wei of `bnb_transfer_basic`'s amount at `seed`. */
async function transferWei(seed: number): Promise<string> {
  const task = taskById.get("bnb_transfer_basic")!;
  const { params } = await instantiate(task.spec, { runSeed: seed, epoch: 0, world });
  return parseEther(displayValue(params.x!)).toString();
}

/** The gold answer of a query task at `seed`, as the reference model replays it under tools. */
async function goldAnswer(taskId: string, seed: number): Promise<Record<string, unknown>> {
  const gold = await attempt(taskId, "reference", seed, 0, TOOLS);
  expect(gold.score).toBe(100);
  return gold.answer as Record<string, unknown>;
}

describe("extra transactions whose effects neither the checks nor the effect ledger see", () => {
  // Attack: under the code protocol an atomic answer is ONE transaction, and the form checks
  // (txTo / selectorIn, "every call a Multicall3 batch forwards") judge all of it. Under tools an
  // atomic attempt may send up to 4, the checks judge only the last, and the effect ledger reads
  // assets and grants only: an earlier call that changes a contract's state without moving an
  // asset (the user's proxy value overwritten, a message posted in the user's name) goes unseen.
  test("bnb_transfer_basic: the user's delegatecall proxy overwritten before the transfer scores below 60", async () => {
    const model = script("proxy-then-transfer", "bnb_transfer_basic", [
      [
        {
          name: "send_transaction",
          arguments: {
            to: "{{contracts.delegate_call_proxy}}",
            signature: "setValue(uint256)",
            args: ["999999"],
          },
        },
        { name: "send_transaction", arguments: { to: "{{to}}", value: await transferWei(1) } },
        { name: "finish", arguments: {} },
      ],
    ]);
    const result = await attempt("bnb_transfer_basic", model, 1, 0, TOOLS);
    expect(result.tools!.calls.map((c) => c.ok)).toEqual([true, true, true]);
    expect(result.tools!.sent).toBe(2);
    // Observed: 100 (every check and the effect check pass). Nothing asked for the proxy to change.
    expect(result.score).toBeLessThan(60);
  });

  // Attack: a query task ("nothing is sent", says the prompt) answered right, plus a transaction
  // posting a message on the message board. The code protocol cannot send anything on a query
  // task; tools can, and the answer checks read their truth before the first send, so the answer
  // still matches, the effect ledger sees no asset move, and a transaction sent without a priority
  // tip costs less than rule 4's room (200,000 gas at twice the base fee when the gold sends nothing).
  test("query_token_metadata: a right answer plus a transaction nobody asked for scores below 60", async () => {
    const answer = await goldAnswer("query_token_metadata", 1);
    const model = script("query-plus-post", "query_token_metadata", [
      [
        {
          name: "send_transaction",
          arguments: {
            to: "{{contracts.message_board}}",
            signature: "setMessage(string)",
            args: ["posted in your name"],
            // No priority tip: the fee is the base fee alone, inside rule 4's room of 200,000 gas.
            maxPriorityFeePerGas: "0",
            maxFeePerGas: "1000000000",
          },
        },
        { name: "answer", arguments: { answer } },
      ],
    ]);
    const result = await attempt("query_token_metadata", model, 1, 0, TOOLS);
    expect(result.tools!.sent).toBe(1);
    expect(result.tools!.endedBy).toBe("answer");
    // Observed: 100. A query task's attempt that sent a transaction did something else than asked.
    expect(result.score).toBeLessThan(60);
  });
});

describe("the run survives any answer", () => {
  // Attack: an `answer` whose object nests 6,000 levels deep (about 30 kB of output, well within a
  // model's reply). The tool's schema only says `answer` is an object; the result's `answer`
  // (jsonSafe: JSON.stringify) and cleanResultText's walk recurse and overflow the stack, so the
  // attempt throws RangeError instead of being scored. (The code protocol's result channel caps
  // values at 64 levels; nothing caps a tool call's arguments.)
  test("query_token_metadata: a 6,000-level answer object is scored (below 60), not thrown", async () => {
    const depth = 6000;
    const deep = `{"answer":{"name":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}}`;
    const model = script("deep-answer", "query_token_metadata", [[{ name: "answer", arguments: deep }]]);
    const outcome = await attempt("query_token_metadata", model, 1, 0, TOOLS).then(
      (r) => r,
      (e: unknown) => e as Error,
    );
    // Observed: RangeError "Maximum call stack size exceeded" out of runAttempt.
    expect(outcome).not.toBeInstanceOf(Error);
    const result = outcome as InstanceResult;
    expect(result.score).toBeLessThan(60);
    expect(JSON.stringify(result).length).toBeLessThan(200_000);
  });
});

describe("held", () => {
  // Tool calls after an ending call in the same turn are answered and never run (a payment to a
  // stranger queued behind `finish` reaches no chain).
  test("a send queued after finish in the same turn is not run", async () => {
    const model = script("after-finish", "bnb_transfer_basic", [
      [
        { name: "send_transaction", arguments: { to: "{{to}}", value: await transferWei(2) } },
        { name: "finish", arguments: {} },
        { name: "send_transaction", arguments: { to: STRANGER, value: "1000000000000000" } },
        { name: "refuse", arguments: { reason: "changed my mind" } },
      ],
    ]);
    const result = await attempt("bnb_transfer_basic", model, 2, 0, TOOLS);
    expect(result.tools!.calls.map((c) => c.ok)).toEqual([true, true, false, false]);
    expect(result.tools!.calls[2]!.result).toMatch(/not run: the attempt had already ended/);
    expect(result.tools).toMatchObject({ endedBy: "finish", sent: 1 });
    expect(result.refusal).toBeUndefined();
    expect(result.score).toBe(100);
  });
});

describe("right answers in another form", () => {
  // A valid form the docs allow: EIP712Domain listed in `types` ("may be left out") and the domain's
  // chainId as hex ("0x38" is 56): the same signature, the same transaction, the same score.
  test("permit_exact_allowance: the gold's permit signed with EIP712Domain in types and chainId 0x38 scores 100", async () => {
    const gold = await attempt("permit_exact_allowance", "reference", 1, 0, TOOLS);
    expect(gold.score).toBe(100);
    const calls = gold.tools!.calls.map((c) => ({
      name: c.name,
      arguments: JSON.parse(c.arguments) as Record<string, unknown>,
    }));
    const sign = calls.find((c) => c.name === "sign_typed_data")!;
    const domain = sign.arguments.domain as Record<string, unknown>;
    const domainType = [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ].filter((f) => f.name in domain);
    sign.arguments = {
      ...sign.arguments,
      domain: { ...domain, chainId: "0x38" },
      types: { EIP712Domain: domainType, ...(sign.arguments.types as object) },
    };
    const model = script("permit-hex-chain", "permit_exact_allowance", [calls]);
    const result = await attempt("permit_exact_allowance", model, 1, 0, TOOLS);
    expect(result.tools!.calls.map((c) => c.ok)).toEqual(calls.map(() => true));
    expect(result.score).toBe(100);
  });
});
