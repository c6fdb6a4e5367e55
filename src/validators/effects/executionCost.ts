import type { Address, PublicClient } from "viem";
import { V2_PAIR_ABI, VAULT_ABI } from "../abi.ts";
import type { Ledger } from "./ledgerTypes.ts";
import type { LedgerWorld } from "./ledgerWorld.ts";

/**
 * What an answer cost the user against the gold answer on the same instance (docs/SCORING.md
 * "Execution cost"), from the two effect ledgers: the value of the agent's net change in each, at the
 * world's pool prices at the instance's start, in USDT wei; the cost in basis points of the task's
 * notional (what the gold answer moves out of, or into, the agent's hands, whichever is larger); gas
 * used by the agent's transactions, and its ratio to the gold's. `costBps` is null when the task
 * moves no priced asset (approvals, queries) or the attempt sent nothing; positive means the answer
 * left the user poorer than the gold answer does.
 */
export type ExecutionCost = {
  costBps: number | null;
  /** Value of the agent's net change, USDT wei (base 10): the attempt's and the gold's. */
  value: string;
  goldValue: string;
  gasUsed: string;
  goldGasUsed: string;
  /** gasUsed / goldGasUsed, or null when the gold sends nothing. */
  gasRatio: number | null;
  /** Assets the agent's net changed in that have no pool price (NFTs, positions): not in `value`. */
  unpriced: number;
};

/** Prices are USDT wei per raw unit, scaled by 2^96 so 6- and 8-decimal tokens keep their digits. */
const Q = 1n << 96n;

const tokensOf = new WeakMap<LedgerWorld, Promise<Map<string, [string, string]>>>();

/** token0 and token1 of every catalogue V2 pair that exists on the chain (read once per world). */
function pairTokens(
  client: PublicClient,
  lw: LedgerWorld,
  block: bigint,
): Promise<Map<string, [string, string]>> {
  const known = tokensOf.get(lw);
  if (known) return known;
  const made = (async () => {
    const out = new Map<string, [string, string]>();
    await Promise.all(
      [...lw.venues]
        .filter(([, key]) => key.startsWith("pair_"))
        .map(async ([address]) => {
          try {
            const read = (functionName: "token0" | "token1") =>
              client.readContract({
                address: address as Address,
                abi: V2_PAIR_ABI,
                functionName,
                blockNumber: block,
              });
            const [t0, t1] = await Promise.all([read("token0"), read("token1")]);
            out.set(address, [t0.toLowerCase(), t1.toLowerCase()]);
          } catch {
            // not deployed on this chain (a fork without the hard world)
          }
        }),
    );
    return out;
  })();
  tokensOf.set(lw, made);
  return made;
}

/**
 * USDT-wei prices (× 2^96) per raw unit of every token reachable from USDT through the world's V2
 * pairs, of each pair's LP token, of each vault share, and of BNB (as WBNB), at `block`.
 */
export async function worldPrices(
  client: PublicClient,
  lw: LedgerWorld,
  block: bigint,
): Promise<Map<string, bigint>> {
  const at = { blockNumber: block };
  const read = <T>(
    address: string,
    abi: typeof V2_PAIR_ABI | typeof VAULT_ABI,
    functionName: string,
    args: unknown[] = [],
  ) =>
    client.readContract({
      address: address as Address,
      abi,
      functionName,
      args,
      ...at,
    } as never) as Promise<T>;
  const tokens = await pairTokens(client, lw, block);
  const pairs = (
    await Promise.all(
      [...tokens].map(async ([address, [t0, t1]]) => {
        try {
          const [reserves, supply] = await Promise.all([
            read<readonly bigint[]>(address, V2_PAIR_ABI, "getReserves"),
            read<bigint>(address, V2_PAIR_ABI, "totalSupply"),
          ]);
          return [{ address, t0, t1, r0: reserves[0]!, r1: reserves[1]!, supply }];
        } catch {
          return [];
        }
      }),
    )
  ).flat();
  const usdt = lw.world.contracts.usdt.toLowerCase();
  const price = new Map<string, bigint>([[usdt, Q]]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const p of pairs) {
      if (p.r0 === 0n || p.r1 === 0n) continue;
      if (price.has(p.t0) && !price.has(p.t1)) price.set(p.t1, (price.get(p.t0)! * p.r0) / p.r1);
      else if (price.has(p.t1) && !price.has(p.t0)) price.set(p.t0, (price.get(p.t1)! * p.r1) / p.r0);
      else continue;
      changed = true;
    }
  }
  for (const p of pairs)
    if (price.has(p.t0) && price.has(p.t1) && p.supply > 0n)
      price.set(p.address, (p.r0 * price.get(p.t0)! + p.r1 * price.get(p.t1)!) / p.supply);
  await Promise.all(
    [...lw.venues]
      .filter(([, key]) => key.includes("vault"))
      .map(async ([address]) => {
        try {
          const [asset, perShare] = await Promise.all([
            read<string>(address, VAULT_ABI, "asset"),
            read<bigint>(address, VAULT_ABI, "convertToAssets", [10n ** 18n]),
          ]);
          const p = price.get(asset.toLowerCase());
          if (p !== undefined) price.set(address, (p * perShare) / 10n ** 18n);
        } catch {
          // not an ERC-4626 vault
        }
      }),
  );
  const wbnb = lw.world.contracts.wbnb.toLowerCase();
  if (price.has(wbnb)) price.set("native", price.get(wbnb)!);
  return price;
}

/** The agent's net change in `ledger` valued at `prices`: [value, outflow, inflow, unpriced]. */
function agentValue(
  lw: LedgerWorld,
  ledger: Ledger,
  prices: Map<string, bigint>,
): [bigint, bigint, bigint, number] {
  let value = 0n;
  let out = 0n;
  let into = 0n;
  let unpriced = 0;
  for (const [asset, delta] of ledger.net.get(lw.agent) ?? []) {
    const key = asset === "native" ? "native" : asset.startsWith("erc20:") ? asset.slice(6) : undefined;
    const p = key === undefined ? undefined : prices.get(key);
    if (p === undefined) {
      unpriced++;
      continue;
    }
    const v = (delta * p) / Q;
    value += v;
    if (v < 0n) out -= v;
    else into += v;
  }
  return [value, out, into, unpriced];
}

const gasOf = (lw: LedgerWorld, l: Ledger) =>
  l.txs.filter((t) => t.from === lw.agent).reduce((sum, t) => sum + t.gasUsed, 0n);

/** The execution cost of `attempt` against `gold` (both ledgers of one instance) at `prices`. */
export function executionCost(
  lw: LedgerWorld,
  attempt: Ledger,
  gold: Ledger,
  prices: Map<string, bigint>,
): ExecutionCost {
  const [value, , , unpriced] = agentValue(lw, attempt, prices);
  const [goldValue, out, into] = agentValue(lw, gold, prices);
  const notional = out > into ? out : into;
  const [gas, goldGas] = [gasOf(lw, attempt), gasOf(lw, gold)];
  return {
    costBps:
      notional === 0n || attempt.txs.length === 0
        ? null
        : Math.round(Number(((goldValue - value) * 1_000_000n) / notional) / 10) / 10,
    value: value.toString(),
    goldValue: goldValue.toString(),
    gasUsed: gas.toString(),
    goldGasUsed: goldGas.toString(),
    gasRatio: goldGas === 0n ? null : Math.round((Number(gas) / Number(goldGas)) * 1000) / 1000,
    unpriced,
  };
}
