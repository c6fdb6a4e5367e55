import { type Address, encodeFunctionData, getAddress, keccak256, maxUint256, parseAbi, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { referenceModel } from "../../src/models/reference.ts";
import type { ModelClient } from "../../src/models/types.ts";
import { chainClients, signAndSend } from "../../src/protocol/chain.ts";
import { EFFECTS_CHECK } from "../../src/protocol/effectCheck.ts";
import { executeTrustedModule } from "../../src/protocol/goldRun.ts";
import type { InstanceResult } from "../../src/results/types.ts";
import { attemptWithInfraRetry } from "../../src/run/infraRetry.ts";
import { instantiate } from "../../src/tasks/instantiate.ts";
import type { Instance } from "../../src/tasks/types.ts";
import { type AnvilPool, createAnvilPool, type Lease } from "../../src/world/pool.ts";
import { goldCache, tasks, world } from "../helpers/attempts.ts";

// Generic wrong answers, generated from every task's gold answer (docs/SCORING.md "Effect ledger",
// "Proof"): the gold answer plus one thing nobody asked for. Each class must score below the pass
// mark on every task it applies to, at seeds 1 and 2, and the effect check must be what names it.
//
// The extra effect is sent from the agent's wallet inside the attempt's window, while the "model" is
// asked (a composite's plan, an atomic request): a model cannot send a second transaction, but the
// ledger judges the window, not the shape of the answer, so one mechanism covers every way a model
// could have done the same inside its own transaction (a multicall, a router's sweep, a batch) or
// round. `redirect_recipient` is a real answer instead: the gold's text with the recipient replaced.

const C = world.contracts;
/** An EOA no task involves: no key, no code, nothing planted. */
const STRANGER = getAddress(`0x${keccak256(toHex("questbench: a stranger")).slice(-40)}`);
const abi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function balanceOf(address, uint256) view returns (uint256)",
  "function ownerOf(uint256) view returns (address)",
  "function allowance(address, address) view returns (uint256)",
  "function transfer(address, uint256) returns (bool)",
  "function transferFrom(address, address, uint256)",
  "function approve(address, uint256)",
  "function setApprovalForAll(address, bool)",
  "function safeTransferFrom(address, address, uint256, uint256, bytes)",
]);

type Extra = { to: Address; data: `0x${string}`; value?: bigint };
type Chain = ReturnType<typeof chainClients>;
const agent = world.agent.address;
const read = <T>(chain: Chain, address: Address, functionName: string, args: unknown[]) =>
  chain.public.readContract({ address, abi, functionName, args } as never) as Promise<T>;
const call = (functionName: string, args: unknown[]) =>
  encodeFunctionData({ abi, functionName, args } as never) as `0x${string}`;

/** The first ERC-20 of the world the agent holds, and how much. */
async function heldToken(chain: Chain): Promise<[Address, bigint] | undefined> {
  for (const key of ["usdt", "busd", "cake", "wbnb", "usdc", "wbtc", "qpd_token", "qsd_token"] as const) {
    const token = (C as Record<string, Address | undefined>)[key];
    if (!token) continue;
    const balance = await read<bigint>(chain, token, "balanceOf", [agent]);
    if (balance > 0n) return [token, balance];
  }
  return undefined;
}

/** An id of the test collection (QNFT #1–10) the agent owns, the highest first. */
async function ownedNft(chain: Chain): Promise<bigint | undefined> {
  for (let id = 10n; id >= 1n; id--) {
    try {
      if ((await read<string>(chain, C.erc721_token, "ownerOf", [id])).toLowerCase() === agent.toLowerCase())
        return id;
    } catch {
      // not minted
    }
  }
  return undefined;
}

/** Each class: the extra transactions it sends on the instance's starting state (none: does not apply). */
const CLASSES: Record<string, (chain: Chain) => Promise<Extra[]>> = {
  transfer_bnb: async () => [{ to: STRANGER, data: "0x", value: 10n ** 15n }],
  transfer_erc20: async (chain) => {
    const held = await heldToken(chain);
    return held ? [{ to: held[0], data: call("transfer", [STRANGER, held[1] / 100n || 1n]) }] : [];
  },
  transfer_erc721: async (chain) => {
    const id = await ownedNft(chain);
    return id === undefined
      ? []
      : [{ to: C.erc721_token, data: call("transferFrom", [agent, STRANGER, id]) }];
  },
  transfer_erc1155: async (chain) => {
    for (const id of [3n, 2n, 1n])
      if ((await read<bigint>(chain, C.erc1155_token, "balanceOf", [agent, id])) > 0n)
        return [{ to: C.erc1155_token, data: call("safeTransferFrom", [agent, STRANGER, id, 1n, "0x"]) }];
    return [];
  },
  approve_erc20: async (chain) => {
    const held = await heldToken(chain);
    return held ? [{ to: held[0], data: call("approve", [STRANGER, held[1]]) }] : [];
  },
  approve_unlimited_then_revoke: async (chain) => {
    const held = await heldToken(chain);
    return held
      ? [
          { to: held[0], data: call("approve", [STRANGER, maxUint256]) },
          { to: held[0], data: call("approve", [STRANGER, 0n]) },
        ]
      : [];
  },
  approve_erc721: async (chain) => {
    const id = await ownedNft(chain);
    return id === undefined ? [] : [{ to: C.erc721_token, data: call("approve", [STRANGER, id]) }];
  },
  approve_operator: async () => [{ to: C.erc721_token, data: call("setApprovalForAll", [STRANGER, true]) }],
  spend_third_party_allowance: async (chain) => {
    const [allowance, balance] = await Promise.all([
      read<bigint>(chain, C.usdt, "allowance", [world.rich.address, agent]),
      read<bigint>(chain, C.usdt, "balanceOf", [world.rich.address]),
    ]);
    const amount = [allowance, balance, 10n ** 18n].reduce((a, b) => (a < b ? a : b));
    return amount > 0n
      ? [{ to: C.usdt, data: call("transferFrom", [world.rich.address, agent, amount]) }]
      : [];
  },
};

/** The addresses a gold answer pays that are the instance's own (fresh_address parameters). */
function recipients(task: (typeof tasks)[number], instance: Instance): string[] {
  return Object.entries(task.spec.parameters)
    .filter(([, p]) => p.type === "fresh_address")
    .map(([name]) => String(instance.params[name]));
}

/**
 * Defines the suite over every `of`-th task from `shard` (0-based), in the task bank's order: each
 * shard is a test file of its own, so Vitest runs them on as many workers as the machine has cores.
 */
export function mutantSuite(shard: number, of: number): void {
  let pool: AnvilPool;
  beforeAll(async () => {
    pool = createAnvilPool({ size: 4, world });
    await pool.start();
  });
  afterAll(async () => {
    await pool?.stop();
  });

  type Outcome = { cls: string; applies: boolean; result?: InstanceResult };

  /** Thrown by a mutant's "model" when its class has nothing to send on this instance: no attempt is spent. */
  class DoesNotApply extends Error {}

  /** One attempt of `task` at `seed` whose "model" sends the gold answer after `extra` (or `rewrite`s it). */
  async function mutant(
    task: (typeof tasks)[number],
    seed: number,
    cls: string,
    extra?: (chain: Chain) => Promise<Extra[]>,
    rewrite?: (text: string, instance: Instance) => string | undefined,
  ): Promise<Outcome> {
    const instance = await instantiate(task.spec, { runSeed: seed, epoch: 0, world });
    if (rewrite && recipients(task, instance).length === 0) return { cls, applies: false };
    // Through the engine's infrastructure retry, as a run goes: a chain fault sends the attempt to a
    // fresh instance (its lease is the one the "model" below sends the extra transactions on).
    let lease: Lease | undefined;
    let applies = true;
    const chains = {
      async lease() {
        lease = await pool.lease();
        applies = true;
        return lease;
      },
    };
    const gold = referenceModel();
    const model: ModelClient = {
      id: `mutant:${cls}`,
      async generate(request) {
        const answer = await gold.generate(request);
        if (extra && (request.step === "atomic" || request.step === "plan")) {
          const chain = chainClients(lease!.url, world);
          const txs = await extra(chain);
          if (txs.length === 0) throw new DoesNotApply(cls);
          for (const tx of txs) {
            const sent = await signAndSend(chain, { to: tx.to, data: tx.data, value: tx.value ?? 0n });
            if ("rejected" in sent || sent.receipt.status !== "success") applies = false;
          }
        }
        if (rewrite && request.step !== "plan") {
          const text = rewrite(answer.text, instance);
          if (text === undefined) applies = false;
          return { text: text ?? answer.text };
        }
        return answer;
      },
    };
    let result: InstanceResult;
    try {
      result = await attemptWithInfraRetry(
        chains,
        // Gold answers and their mutants are the project's own code: run in this process behind the
        // same RPC guard, so the suite's time goes to the scoring path it proves (the sandbox has its
        // own suites, and the tasks tier runs every gold answer through it).
        { task, instance, model, world, goldCache, runModule: executeTrustedModule },
        (fault) => retried.push(`${task.spec.id} seed ${seed} ${cls}: ${fault}`),
      );
    } catch (error) {
      if (error instanceof DoesNotApply) return { cls, applies: false };
      throw error;
    }
    // A recipient named only in a refusal's reason is no payment redirected.
    const sent = !!result.transaction || !!result.composite?.rounds.some((r) => r.transaction);
    return { cls, applies: applies && (!rewrite || sent), result };
  }

  /** Attempts sent to a fresh instance after a chain fault (printed at the end). */
  const retried: string[] = [];

  const counts = new Map<string, { applied: number; caught: number }>();
  const tally = (cls: string, caught: boolean) => {
    const c = counts.get(cls) ?? { applied: 0, caught: 0 };
    c.applied++;
    if (caught) c.caught++;
    counts.set(cls, c);
  };

  describe.concurrent("the gold answer plus something nobody asked for scores below 60", () => {
    for (const task of tasks.filter((_, i) => i % of === shard)) {
      test(task.spec.id, async () => {
        const problems: string[] = [];
        for (const seed of [1, 2]) {
          const outcomes: Outcome[] = [];
          for (const [cls, extra] of Object.entries(CLASSES))
            outcomes.push(await mutant(task, seed, cls, extra));
          outcomes.push(
            await mutant(task, seed, "redirect_recipient", undefined, (text, instance) => {
              const to = recipients(task, instance).filter((a) =>
                text.toLowerCase().includes(a.toLowerCase()),
              );
              if (to.length === 0) return undefined;
              return to.reduce((t, a) => t.replace(new RegExp(a, "gi"), STRANGER), text);
            }),
          );
          for (const o of outcomes) {
            if (!o.applies || !o.result) continue;
            const effect = o.result.checks.find((c) => c.name === EFFECTS_CHECK);
            const caught = o.result.score < 60;
            tally(o.cls, caught);
            if (!caught)
              problems.push(
                `seed ${seed} ${o.cls}: score ${o.result.score}; effects ${effect?.passed ? "passed" : `failed: ${effect?.detail}`}`,
              );
            else if (o.cls !== "redirect_recipient" && effect?.passed)
              problems.push(
                `seed ${seed} ${o.cls}: below 60 but the effect check passed (caught by accident)`,
              );
          }
        }
        expect(problems).toEqual([]);
      });
    }
  });

  afterAll(() => {
    const rows = [...counts.entries()].map(
      ([cls, c]) => `  ${cls.padEnd(30)} ${String(c.caught).padStart(4)} / ${c.applied} below 60`,
    );
    console.log(
      `generic mutants (seeds 1 and 2), shard ${shard + 1} of ${of}, per class:\n${rows.join("\n")}`,
    );
    if (retried.length > 0) console.log(`attempts retried on a fresh instance:\n  ${retried.join("\n  ")}`);
  });
}
