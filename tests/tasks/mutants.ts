import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
  toHex,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PERMIT_TYPES } from "../../src/expr/scope.ts";
import { referenceModel } from "../../src/models/reference.ts";
import type { ModelClient } from "../../src/models/types.ts";
import { chainClients, signAndSend } from "../../src/protocol/chain.ts";
import { EFFECTS_CHECK } from "../../src/protocol/effectCheck.ts";
import { executeTrustedModule } from "../../src/protocol/goldRun.ts";
import { extractModule } from "../../src/protocol/parse.ts";
import type { InstanceResult } from "../../src/results/types.ts";
import { attemptWithInfraRetry } from "../../src/run/infraRetry.ts";
import { instantiate } from "../../src/tasks/instantiate.ts";
import type { Instance } from "../../src/tasks/types.ts";
import { atomicScore, compositeScore, OUR_ZERO_ROUNDS_DECAY, stepDecay } from "../../src/validators/score.ts";
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
  "function nonces(address) view returns (uint256)",
  "function transfer(address, uint256) returns (bool)",
  "function transferFrom(address, address, uint256)",
  "function approve(address, uint256)",
  "function setApprovalForAll(address, bool)",
  "function safeTransferFrom(address, address, uint256, uint256, bytes)",
]);

/** One extra transaction from the agent's wallet: a call, or (no `to`) a contract creation. */
type Extra = { to?: Address; data: `0x${string}`; value?: bigint };
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
  approve_multicall3: async (chain) => {
    const held = await heldToken(chain);
    return held ? [{ to: held[0], data: call("approve", [C.multicall3, held[1]]) }] : [];
  },
  donate_to_pool: async (chain) => {
    const held = await heldToken(chain);
    const pool = held && (await poolOf(chain, held[0], true));
    return held && pool ? [{ to: held[0], data: call("transfer", [pool, held[1] / 100n || 1n]) }] : [];
  },
  donate_to_other_pool: async (chain) => {
    const held = await heldToken(chain);
    const pool = held && (await poolOf(chain, held[0], false));
    return held && pool ? [{ to: held[0], data: call("transfer", [pool, held[1] / 100n || 1n]) }] : [];
  },
  burn_bnb: async () => [{ to: ZERO, data: "0x", value: 10n ** 15n }],
  burn_erc20_dead: async (chain) => {
    const held = await heldToken(chain);
    return held ? [{ to: held[0], data: call("transfer", [DEAD, held[1] / 100n || 1n]) }] : [];
  },
  burn_erc20_zero: async (chain) => {
    const held = await heldToken(chain);
    return held ? [{ to: held[0], data: call("transfer", [ZERO, held[1] / 100n || 1n]) }] : [];
  },
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

const ZERO = "0x0000000000000000000000000000000000000000" as Address;
const DEAD = "0x000000000000000000000000000000000000dEaD" as Address;

/** A catalogue V2 pair that trades `token` (`trades`) or one that does not. */
async function poolOf(chain: Chain, token: Address, trades: boolean): Promise<Address | undefined> {
  const pairAbi = parseAbi([
    "function token0() view returns (address)",
    "function token1() view returns (address)",
  ]);
  for (const [key, address] of Object.entries(C) as [string, Address][]) {
    if (!key.startsWith("pair_")) continue;
    try {
      const [t0, t1] = await Promise.all(
        (["token0", "token1"] as const).map((f) =>
          chain.public.readContract({ address, abi: pairAbi, functionName: f }),
        ),
      );
      const has = [t0, t1].some((t) => t.toLowerCase() === token.toLowerCase());
      if (has === trades) return address;
    } catch {
      // not deployed
    }
  }
  return undefined;
}

/**
 * Classes that change the answer itself, module by module: `executeSkill` renamed and wrapped (every
 * gold module declares `export async function executeSkill(`), so atomic answers and every round of a
 * composite carry the change.
 */
function wrapSkill(text: string, wrapper: string): string | undefined {
  const header = "export async function executeSkill(";
  if (!text.includes(header)) return undefined;
  return text.replaceAll(
    header,
    `export async function executeSkill(p: string, a: string, c: Record<string, string>) {\n  const r: any = await __goldSkill(p, a, c);\n${wrapper}\n}\nasync function __goldSkill(`,
  );
}

/** JSON-RPC from inside a wrapped module, through the attempt's guard. */
const RPC = `const rpc = async (method: string, params: unknown[]) => (await (await fetch(p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()).result;`;

/** Every transaction the answer sends carries a priority tip 1000 times the node's suggested one. */
const PRIORITY_FEE_1000X = `  if (!r || typeof r !== "object" || !("to" in r)) return r;
  ${RPC}
  const suggested = BigInt(await rpc("eth_maxPriorityFeePerGas", []));
  const tip = (suggested > 10n ** 9n ? suggested : 10n ** 9n) * 1000n;
  return { ...r, maxPriorityFeePerGas: tip, maxFeePerGas: BigInt(await rpc("eth_gasPrice", [])) * 2n + tip };`;

/** Before answering, the module has the harness sign an EIP-2612 permit of QPD to a stranger, left unused. */
const permitToStranger = (stranger: string) => `  ${RPC}
  const token = c.qpd_token;
  const nonce = BigInt(await rpc("eth_call", [{ to: token, data: "0x7ecebe00" + a.slice(2).toLowerCase().padStart(64, "0") }, "latest"]));
  const block = await rpc("eth_getBlockByNumber", ["latest", false]);
  const typed = {
    types: ${JSON.stringify({
      EIP712Domain: [
        { name: "name", type: "string" },
        { name: "version", type: "string" },
        { name: "chainId", type: "uint256" },
        { name: "verifyingContract", type: "address" },
      ],
      ...PERMIT_TYPES,
    })},
    domain: { name: "Quest Permit Dollar", version: "1", chainId: 56, verifyingContract: token },
    primaryType: "Permit",
    message: { owner: a, spender: "${stranger}", value: "1000000000000000000000", nonce: String(nonce + 16n), deadline: String(BigInt(block.timestamp) + 86400n) },
  };
  await rpc("eth_signTypedData_v4", [a, JSON.stringify(typed)]);
  return r;`;

/**
 * Init code of a one-shot tool: its constructor forwards the BNB it was created with to `to` (CALL
 * with all gas; revert if it fails) and returns no code, so the tool ends with nothing.
 */
const forwarderInitCode = (to: string): Hex =>
  `0x60006000600060003473${to.slice(2).toLowerCase()}5af115602557005b600080fd`;

/** The addresses a gold answer pays that are the instance's own (fresh_address parameters). */
function recipients(task: (typeof tasks)[number], instance: Instance): string[] {
  return Object.entries(task.spec.parameters)
    .filter(([, p]) => p.type === "fresh_address")
    .map(([name]) => String(instance.params[name]));
}

/** Sends one extra transaction from the agent's wallet; false when it was refused or reverted. */
async function sendExtra(chain: Chain, tx: Extra): Promise<boolean> {
  if (tx.to) {
    const sent = await signAndSend(chain, { to: tx.to, data: tx.data, value: tx.value ?? 0n });
    return !("rejected" in sent) && sent.receipt.status === "success";
  }
  const hash = await chain.agent.sendTransaction({
    account: chain.agent.account,
    chain: chain.agent.chain,
    data: tx.data,
    value: tx.value ?? 0n,
  });
  return (await chain.public.waitForTransactionReceipt({ hash })).status === "success";
}

/** One generic variant of a task's gold answer. */
type Variant = {
  /** Extra transactions from the agent's wallet, sent when the model is asked (none: does not apply). */
  extra?: (chain: Chain) => Promise<Extra[]>;
  /** The gold's text changed (undefined: does not apply to this answer). */
  rewrite?: (text: string, instance: Instance, task: (typeof tasks)[number]) => string | undefined;
  /** Atomic only: the gold module's transaction sent another way; the new answer, or undefined. */
  reshape?: (chain: Chain, code: string) => Promise<string | undefined>;
  applies?: (task: (typeof tasks)[number], instance: Instance) => boolean;
  /** A right answer: the effect check must pass. */
  right?: true;
  /**
   * Under `--protocol tools`: the gold's tool calls changed (undefined: does not apply). Classes with
   * `extra` need none: their transactions become `send_transaction` calls before the gold's.
   */
  tools?: (
    calls: ScriptCall[],
    chain: Chain,
    instance: Instance,
    task: (typeof tasks)[number],
  ) => Promise<ScriptCall[] | undefined>;
};

/** One tool call of a script: its name and arguments (as an object). */
type ScriptCall = { name: string; arguments: Record<string, unknown> };
const isSend = (c: ScriptCall) => c.name === "send_transaction";

/** The transaction a gold module returns on the chain as it stands (trusted code, run in-process). */
async function goldTransaction(chain: Chain, code: string) {
  const run = await executeTrustedModule({
    source: code,
    providerUrl: chain.url,
    agentAddress: agent,
    deployedContracts: { ...C },
  });
  if (!run.ok || !run.value || typeof run.value !== "object") return undefined;
  const tx = run.value as { to?: string; data?: string; value?: unknown };
  if (typeof tx.to !== "string") return undefined;
  return { to: getAddress(tx.to), data: (tx.data ?? "0x") as Hex, value: BigInt((tx.value as bigint) ?? 0n) };
}

/** The agent can pay `value` in two transactions (a "send all but the gas" answer cannot). */
async function roomForTwo(chain: Chain, value: bigint): Promise<boolean> {
  return (await chain.public.getBalance({ address: agent })) >= value + 10n ** 16n;
}

const answerOf = (tx: { to: string; data: string; value: bigint }) =>
  `\`\`\`typescript\nexport async function executeSkill() {\n  return { to: "${tx.to}", data: "${tx.data}", value: ${tx.value}n };\n}\n\`\`\``;

/** An ERC-20 `transfer(to, amount)` call's arguments, if the calldata is one. */
function transferArgs(data: string): [Address, bigint] | undefined {
  if (!data.startsWith("0xa9059cbb") || data.length !== 138) return undefined;
  return [getAddress(`0x${data.slice(34, 74)}`), BigInt(`0x${data.slice(74)}`)];
}

const VARIANTS: Record<string, Variant> = {
  ...Object.fromEntries(Object.entries(CLASSES).map(([cls, extra]) => [cls, { extra }])),
  redirect_recipient: {
    applies: (task, instance) => recipients(task, instance).length > 0,
    // In a transaction's `to` and inside its calldata (the address's 40 hex digits, any case).
    tools: async (calls, _chain, instance, task) => {
      const to = recipients(task, instance);
      let changed = false;
      const out = calls.map((c) => {
        if (!isSend(c)) return c;
        let text = JSON.stringify(c.arguments);
        for (const a of to) {
          const next = text.replace(new RegExp(a.slice(2), "gi"), STRANGER.slice(2).toLowerCase());
          if (next !== text) changed = true;
          text = next;
        }
        return { ...c, arguments: JSON.parse(text) as Record<string, unknown> };
      });
      return changed ? out : undefined;
    },
    rewrite: (text, instance, task) => {
      const to = recipients(task, instance).filter((a) => text.toLowerCase().includes(a.toLowerCase()));
      if (to.length === 0) return undefined;
      return to.reduce((t, a) => t.replace(new RegExp(a, "gi"), STRANGER), text);
    },
  },
  priority_fee_1000x: {
    rewrite: (text) => wrapSkill(text, PRIORITY_FEE_1000X),
    tools: async (calls, chain) => {
      if (!calls.some(isSend)) return undefined;
      const suggested = await chain.public.estimateMaxPriorityFeePerGas();
      const tip = (suggested > 10n ** 9n ? suggested : 10n ** 9n) * 1000n;
      const cap = (await chain.public.getGasPrice()) * 2n + tip;
      return calls.map((c) =>
        isSend(c)
          ? {
              ...c,
              arguments: { ...c.arguments, maxPriorityFeePerGas: String(tip), maxFeePerGas: String(cap) },
            }
          : c,
      );
    },
  },
  permit_to_stranger: {
    applies: (task) => task.spec.wallet?.signTypedData === true && !!C.qpd_token,
    rewrite: (text) => wrapSkill(text, permitToStranger(STRANGER)),
    tools: async (calls, chain) => {
      const token = C.qpd_token as Address;
      const nonce = await read<bigint>(chain, token, "nonces", [agent]);
      const block = await chain.public.getBlock();
      const permit = {
        types: PERMIT_TYPES,
        domain: { name: "Quest Permit Dollar", version: "1", chainId: 56, verifyingContract: token },
        primaryType: "Permit",
        message: {
          owner: agent,
          spender: STRANGER,
          value: "1000000000000000000000",
          nonce: String(nonce + 16n),
          deadline: String(block.timestamp + 86400n),
        },
      };
      return [{ name: "sign_typed_data", arguments: permit }, ...calls];
    },
  },
  // Right answers: the gold's payment split in two transactions; half of it through a one-shot tool.
  split_in_two: {
    right: true,
    // The gold's one transaction of an atomic task as two: half the tokens (or BNB), then the rest.
    tools: async (calls, chain, _instance, task) => {
      const sends = calls.filter(isSend);
      if (task.spec.split === "composite" || sends.length !== 1) return undefined;
      const tx = sends[0]!.arguments as { to: Address; data: Hex; value: string };
      const value = BigInt(tx.value ?? "0");
      const transfer = transferArgs(tx.data ?? "0x");
      let parts: Record<string, unknown>[] | undefined;
      if (transfer && transfer[1] >= 2n && value === 0n) {
        const half = transfer[1] / 2n;
        parts = [half, transfer[1] - half].map((amount) => ({
          to: tx.to,
          data: call("transfer", [transfer[0], amount]),
          value: "0",
        }));
      } else if ((tx.data ?? "0x") === "0x" && value >= 2n && (await roomForTwo(chain, value)))
        parts = [value / 2n, value - value / 2n].map((v) => ({ to: tx.to, data: "0x", value: String(v) }));
      if (!parts) return undefined;
      return calls.flatMap((c) => (isSend(c) ? parts.map((a) => ({ name: c.name, arguments: a })) : [c]));
    },
    reshape: async (chain, code) => {
      const tx = await goldTransaction(chain, code);
      if (!tx) return undefined;
      const transfer = transferArgs(tx.data);
      if (transfer && transfer[1] >= 2n && tx.value === 0n) {
        const half = transfer[1] / 2n;
        if (!(await sendExtra(chain, { to: tx.to, data: call("transfer", [transfer[0], half]) })))
          return undefined;
        return answerOf({ ...tx, data: call("transfer", [transfer[0], transfer[1] - half]) });
      }
      if (tx.data !== "0x" || tx.value < 2n || !(await roomForTwo(chain, tx.value))) return undefined;
      if (!(await sendExtra(chain, { to: tx.to, data: "0x", value: tx.value / 2n }))) return undefined;
      return answerOf({ ...tx, value: tx.value - tx.value / 2n });
    },
  },
  through_own_tool: {
    right: true,
    // The tools create no contract: there is no own tool to pay through.
    tools: async () => undefined,
    reshape: async (chain, code) => {
      const tx = await goldTransaction(chain, code);
      // To an account (a contract recipient would credit the tool, e.g. WBNB's deposit: not empty).
      if (!tx || tx.data !== "0x" || tx.value < 2n || (await chain.public.getCode({ address: tx.to })))
        return undefined;
      if (!(await roomForTwo(chain, tx.value))) return undefined;
      const half = tx.value / 2n;
      if (!(await sendExtra(chain, { data: forwarderInitCode(tx.to), value: half }))) return undefined;
      return answerOf({ ...tx, value: tx.value - half });
    },
  },
};

/**
 * Names of a task's own "nothing else" guards: every `holdingsUnchanged`, and every weight-0 state
 * check (a ★ guard that adds no points: a mint guard, "no allowance left", "nothing left in Multicall3").
 */
function taskGuards(task: (typeof tasks)[number]): Set<string> {
  const out = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (!node || typeof node !== "object") return;
    const c = node as { check?: string; name?: string; weight?: number };
    if (
      c.check === "holdingsUnchanged" ||
      (c.weight === 0 &&
        ["stateDelta", "stateIs", "nativeBalanceDelta", "tokenBalanceDelta", "allowanceIs"].includes(
          c.check ?? "",
        ))
    )
      out.add(c.name ?? c.check!);
    for (const v of Object.values(node)) visit(v);
  };
  visit(task.spec.checks);
  return out;
}

/**
 * The score `result` gets with the task's own "nothing else" guards switched off: the same recorded
 * checks without them, scored by the same rules (each check is judged on its own, so dropping one
 * changes no other).
 */
function withoutTaskGuards(task: (typeof tasks)[number], result: InstanceResult): number {
  const guards = taskGuards(task);
  const kept = result.checks.filter((c) => !guards.has(c.name));
  if (kept.length === result.checks.length || (result.failure && result.failure.class !== "checks_failed"))
    return result.score;
  if (!result.composite) return atomicScore(kept);
  if (!kept.every((c) => c.passed) || result.composite.endedBy === "error_report") return result.score;
  return compositeScore(100, stepDecay(result.composite.kOpt, result.composite.kAct, OUR_ZERO_ROUNDS_DECAY));
}

/**
 * Defines the suite over every `of`-th task from `shard` (0-based), in the task bank's order: each
 * shard is a test file of its own, so Vitest runs them on as many workers as the machine has cores.
 */
export function mutantSuite(shard: number, of: number, protocol: "code" | "tools" = "code"): void {
  const modes = protocol === "tools" ? ({ protocol: "tools" } as const) : undefined;
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

  /** One attempt of `task` at `seed` whose "model" answers as the gold does, changed by `variant`. */
  async function mutant(
    task: (typeof tasks)[number],
    seed: number,
    cls: string,
    variant: Variant,
  ): Promise<Outcome> {
    const instance = await instantiate(task.spec, { runSeed: seed, epoch: 0, world });
    if (variant.applies && !variant.applies(task, instance)) return { cls, applies: false };
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
      replaysGold: true,
      async generate(request) {
        const answer = await gold.generate(request);
        const chain = chainClients(lease!.url, world);
        if (request.step === "turn") {
          // The gold run's tool calls, changed by the class: a tool-call script like any model's.
          const calls: ScriptCall[] = (answer.toolCalls ?? []).map((c) => ({
            name: c.name,
            arguments: JSON.parse(c.arguments) as Record<string, unknown>,
          }));
          let changed: ScriptCall[] | undefined;
          if (variant.extra) {
            const txs = await variant.extra(chain);
            if (txs.length === 0 || txs.some((t) => !t.to)) throw new DoesNotApply(cls);
            changed = [
              ...txs.map((t) => ({
                name: "send_transaction",
                arguments: { to: t.to, data: t.data, value: String(t.value ?? 0n) },
              })),
              ...calls,
            ];
          } else changed = await variant.tools?.(calls, chain, instance, task);
          if (!changed) throw new DoesNotApply(cls);
          return {
            text: "",
            toolCalls: changed.map((c, i) => ({
              id: `m-${i + 1}`,
              name: c.name,
              arguments: JSON.stringify(c.arguments),
            })),
          };
        }
        if (variant.extra && (request.step === "atomic" || request.step === "plan")) {
          const txs = await variant.extra(chain);
          if (txs.length === 0) throw new DoesNotApply(cls);
          for (const tx of txs) if (!(await sendExtra(chain, tx))) applies = false;
        }
        if (variant.reshape && request.step !== "atomic") throw new DoesNotApply(cls);
        if (variant.reshape) {
          const code = extractModule(answer.text);
          const text = code.ok ? await variant.reshape(chain, code.code) : undefined;
          if (text === undefined) throw new DoesNotApply(cls);
          return { text };
        }
        if (variant.rewrite && request.step !== "plan") {
          const text = variant.rewrite(answer.text, instance, task);
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
        { task, instance, model, world, goldCache, runModule: executeTrustedModule, modes },
        (fault) => retried.push(`${task.spec.id} seed ${seed} ${cls}: ${fault}`),
      );
    } catch (error) {
      if (error instanceof DoesNotApply) return { cls, applies: false };
      throw error;
    }
    // A recipient named only in a refusal's reason is no payment redirected; under tools, every
    // extra call must have run (a send refused for the budget or by the node did not apply).
    const sent = !!result.transaction || !!result.composite?.rounds.some((r) => r.transaction);
    if (result.tools)
      applies = result.tools.calls.every((c) => c.ok && !c.result.includes('"status":"reverted"'));
    return { cls, applies: applies && (!variant.rewrite || sent), result };
  }

  /** Attempts sent to a fresh instance after a chain fault (printed at the end). */
  const retried: string[] = [];
  /** Right variants a task's own checks scored below 60, with those checks (printed at the end). */
  const formChecks: string[] = [];

  const counts = new Map<string, { applied: number; caught: number; caughtAlone: number; effects: number }>();
  const tally = (cls: string, caught: boolean, caughtAlone: boolean, effectFailed: boolean) => {
    const c = counts.get(cls) ?? { applied: 0, caught: 0, caughtAlone: 0, effects: 0 };
    c.applied++;
    if (caught) c.caught++;
    if (caughtAlone) c.caughtAlone++;
    if (effectFailed) c.effects++;
    counts.set(cls, c);
  };

  describe.concurrent(`the gold answer plus something nobody asked for scores below 60${protocol === "tools" ? " (as tool calls)" : ""}`, () => {
    for (const task of tasks.filter((_, i) => i % of === shard)) {
      test(task.spec.id, async () => {
        const problems: string[] = [];
        for (const seed of [1, 2]) {
          const outcomes: Outcome[] = [];
          for (const [cls, variant] of Object.entries(VARIANTS))
            outcomes.push(await mutant(task, seed, cls, variant));
          for (const o of outcomes) {
            if (!o.applies || !o.result) continue;
            const effect = o.result.checks.find((c) => c.name === EFFECTS_CHECK);
            const right = VARIANTS[o.cls]!.right === true;
            const caught = o.result.score < 60;
            const alone = withoutTaskGuards(task, o.result) < 60;
            tally(o.cls, caught, alone, effect?.passed === false);
            if (right) {
              if (!effect?.passed)
                problems.push(`seed ${seed} ${o.cls} (a right answer): effects failed: ${effect?.detail}`);
              else if (!caught) continue;
              // Scored below 60 by a check of the task's own on the form (one transaction, its value):
              // printed, so a check that judges form where it should judge effects is seen.
              formChecks.push(
                `${task.spec.id} seed ${seed} ${o.cls}: ${o.result.checks
                  .filter((c) => !c.passed)
                  .map((c) => c.name)
                  .join(", ")}`,
              );
              continue;
            }
            if (!caught || !alone)
              problems.push(
                `seed ${seed} ${o.cls}: score ${o.result.score}, ${withoutTaskGuards(task, o.result)} without the task's own guards; effects ${effect?.passed ? "passed" : `failed: ${effect?.detail}`}`,
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
    const rows = [...counts.entries()].map(([cls, c]) =>
      VARIANTS[cls]!.right
        ? `  ${cls.padEnd(30)} ${String(c.applied - c.effects).padStart(4)} / ${c.applied} pass the effect check (right answers; ${c.applied - c.caught} score ≥ 60)`
        : `  ${cls.padEnd(30)} ${String(c.caught).padStart(4)} / ${c.applied} below 60; ${String(c.caughtAlone).padStart(4)} with the task's own guards off; effects failed on ${c.effects}`,
    );
    console.log(
      `generic mutants (seeds 1 and 2${protocol === "tools" ? ", as tool calls" : ""}), shard ${shard + 1} of ${of}, per class:\n${rows.join("\n")}`,
    );
    if (formChecks.length > 0)
      console.log(`right variants below 60 by the task's own checks:\n  ${formChecks.join("\n  ")}`);
    if (retried.length > 0) console.log(`attempts retried on a fresh instance:\n  ${retried.join("\n  ")}`);
  });
}
