import type { Address, PublicClient } from "viem";
import { V2_PAIR_ABI, VAULT_ABI } from "../abi.ts";
import type { Ledger } from "./ledgerTypes.ts";
import { assetName, isLiability, type LedgerWorld, partyName } from "./ledgerWorld.ts";

/**
 * What an answer cost the user against the gold answer on the same instance (docs/SCORING.md
 * "Execution cost"), from the two effect ledgers: the value of the agent's net change in each, at the
 * world's pool prices at the instance's start, in USDT wei; the cost in basis points of the task's
 * notional (what the gold answer moves out of, or into, the agent's hands, whichever is larger); gas
 * used by the agent's transactions, and its ratio to the gold's. The agent's fees are in both values
 * (BNB paid, the priority tip included), as the effect check's rule 1 and rule 4 read them; where the
 * gold moves no priced asset the notional is the gold's fee. `costBps` is null when the attempt sent
 * nothing (or neither moves anything priced, fees included); positive means the answer left the user
 * poorer than the gold answer does.
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
  /** How many of the agent's changed assets have no pool price (NFTs, positions): not in `value`. */
  unpriced: number;
  /** Those assets, by name (`QNFT #3`, `staked in simple_staking`), for a reader to weigh by hand. */
  unpricedAssets?: string[] | undefined;
  /** The agent's fees, wei (base 10): the attempt's and the gold's. */
  fees?: string | undefined;
  goldFees?: string | undefined;
  /**
   * The effect ledger beside the gold's: one row per (party, asset) either changes, with both net
   * changes in the asset's smallest unit (base 10; the agent's BNB net of its fees), the rows where
   * they differ first; at most {@link LEDGER_ROWS}.
   */
  ledger?: LedgerRow[] | undefined;
};

/** One row of {@link ExecutionCost.ledger}: who, what, and the net change under the attempt and the gold. */
export type LedgerRow = { party: string; asset: string; attempt: string; gold: string };

/** The most ledger rows an instance records. */
export const LEDGER_ROWS = 40;

/** The two ledgers side by side (see {@link ExecutionCost.ledger}). */
export function ledgerRows(lw: LedgerWorld, attempt: Ledger, gold: Ledger): LedgerRow[] {
  const rows: (LedgerRow & { differs: boolean })[] = [];
  for (const party of new Set([...attempt.net.keys(), ...gold.net.keys()])) {
    const [a, g] = [attempt.net.get(party), gold.net.get(party)];
    for (const asset of new Set([...(a?.keys() ?? []), ...(g?.keys() ?? [])])) {
      const [x, y] = [a?.get(asset) ?? 0n, g?.get(asset) ?? 0n];
      rows.push({
        party: partyName(lw, party),
        asset: assetName(lw, asset),
        attempt: x.toString(),
        gold: y.toString(),
        differs: x !== y,
      });
    }
  }
  rows.sort((p, q) => Number(q.differs) - Number(p.differs));
  return rows.slice(0, LEDGER_ROWS).map(({ differs: _d, ...r }) => r);
}

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

/** The agent's fees in `ledger`, wei. */
export const feesOf = (lw: LedgerWorld, l: Ledger): bigint =>
  l.txs.filter((t) => t.from === lw.agent).reduce((sum, t) => sum + t.fee, 0n);

/** A valuation of the agent's net change: USDT wei, its outflow and inflow, and the assets not priced. */
export type AgentValue = { value: bigint; out: bigint; into: bigint; unpriced: string[] };

/**
 * The USDT-wei price (× 2^96) of one unit of `asset` and its sign (−1 for a debt), or undefined:
 * BNB as WBNB, an ERC-20 (token, LP, vault share) at `prices`, a catalogue position at the price of
 * the token it redeems for (lending collateral, staked tokens and LP) or owes (debt).
 */
export function unitPrice(
  lw: LedgerWorld,
  prices: ReadonlyMap<string, bigint>,
  asset: string,
): { price: bigint; sign: bigint } | undefined {
  if (asset === "native")
    return prices.has("native") ? { price: prices.get("native")!, sign: 1n } : undefined;
  if (asset.startsWith("erc20:")) {
    const p = prices.get(asset.slice(6));
    return p === undefined ? undefined : { price: p, sign: 1n };
  }
  if (!asset.startsWith("position:")) return undefined;
  const [, contract, key] = asset.split(":") as [string, string, string];
  const reader = lw.positions.get(contract)?.find((r) => r.key === key);
  const token = reader?.token && (lw.world.contracts as Record<string, string | undefined>)[reader.token];
  const p = token ? prices.get(token.toLowerCase()) : undefined;
  if (p === undefined) return undefined;
  return { price: p, sign: isLiability(lw, asset) ? -1n : 1n };
}

/**
 * The agent's net change in `ledger` valued at `prices` (docs/SCORING.md "Execution cost"): fees
 * included unless `fees` is false; `deltas` replaces the net change of some assets (the effect check
 * evens out gains that accrue with time).
 */
export function agentValue(
  lw: LedgerWorld,
  ledger: Ledger,
  prices: ReadonlyMap<string, bigint>,
  options: { fees?: boolean; deltas?: ReadonlyMap<string, bigint> } = {},
): AgentValue {
  let value = 0n;
  let out = 0n;
  let into = 0n;
  const unpriced: string[] = [];
  const net = new Map(ledger.net.get(lw.agent) ?? []);
  for (const [asset, delta] of options.deltas ?? []) net.set(asset, delta);
  if (options.fees !== false) net.set("native", (net.get("native") ?? 0n) - feesOf(lw, ledger));
  for (const [asset, delta] of net) {
    if (delta === 0n) continue;
    const unit = unitPrice(lw, prices, asset);
    if (unit === undefined) {
      unpriced.push(asset);
      continue;
    }
    const v = (unit.sign * delta * unit.price) / Q;
    value += v;
    if (v < 0n) out -= v;
    else into += v;
  }
  return { value, out, into, unpriced };
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
  const { value, unpriced } = agentValue(lw, attempt, prices);
  const { value: goldValue, out, into } = agentValue(lw, gold, prices);
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
    unpriced: unpriced.length,
    ...(unpriced.length > 0 ? { unpricedAssets: unpriced.map((a) => assetName(lw, a)) } : {}),
    fees: feesOf(lw, attempt).toString(),
    goldFees: feesOf(lw, gold).toString(),
    ledger: ledgerRows(lw, attempt, gold),
  };
}
