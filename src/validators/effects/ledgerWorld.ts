import type { Address } from "viem";
import { CATALOGUE } from "../../world/catalogue.ts";
import type { World } from "../../world/world.ts";

/**
 * One per-account position reader of a catalogue contract: `signature` called with the account;
 * `token` the catalogue key of the token one unit of it redeems for, where known (a debt owes it).
 */
export type PositionReader = { key: string; signature: string; token?: string | undefined };

/** The paper world's staking positions (userInfo's first word is the staked amount). */
const PAPER_POSITIONS: Record<string, PositionReader[]> = {
  simple_staking: [
    { key: "staked", signature: "function userInfo(address) view returns (uint256)", token: "cake" },
  ],
  simple_lp_staking: [
    {
      key: "staked",
      signature: "function userInfo(address) view returns (uint256)",
      token: "pair_usdt_busd",
    },
  ],
  simple_reward_pool: [
    {
      key: "staked",
      signature: "function userInfo(address) view returns (uint256)",
      token: "pair_wbnb_usdt",
    },
  ],
};

/**
 * What the world's catalogue says about addresses, once per world: every catalogue contract (a
 * venue), its per-account position readers, and the ERC-20s (tokens and V2 pairs) whose balances the
 * agent's holdings include.
 */
export type LedgerWorld = {
  world: World;
  agent: string;
  /** lower-case address → catalogue key, for every contract entry (not the harness's EOAs). */
  venues: Map<string, string>;
  /** The venues that only pass assets through (catalogue `passThrough`). */
  passThrough: Set<string>;
  /** Contracts that make arbitrary calls for anyone (catalogue `forwardsCalls`): strangers for grants. */
  forwarders: Set<string>;
  /** Liquidity pools (V2 pairs, V3 pools): a route may use any of them, so their flows are the market's. */
  pools: Set<string>;
  positions: Map<string, PositionReader[]>;
  /** ERC-20 contracts (tokens, V2 pairs, vault shares) the agent's assets are always read in. */
  fungibles: string[];
  symbols: Map<string, string>;
};

const worlds = new WeakMap<World, LedgerWorld>();

/** The catalogue key of the token a holding's unit names first ("WBTC supplied to …" → wbtc). */
function unitToken(unit: string): string | undefined {
  const symbol = /^([A-Za-z0-9]+) (supplied|owed|staked|deposited)\b/.exec(unit)?.[1];
  if (!symbol) return undefined;
  const entries = Object.entries(CATALOGUE) as [string, { token?: { symbol: string } }][];
  return entries.find(([, e]) => e.token?.symbol === symbol)?.[0];
}

/** The catalogue's view of `world` for the ledger (memoised per world). */
export function ledgerWorld(world: World): LedgerWorld {
  const known = worlds.get(world);
  if (known) return known;
  const venues = new Map<string, string>();
  const passThrough = new Set<string>();
  const pools = new Set<string>();
  const forwarders = new Set<string>();
  const positions = new Map<string, PositionReader[]>();
  const fungibles: string[] = [];
  const symbols = new Map<string, string>();
  for (const [key, address] of Object.entries(world.contracts) as [string, Address][]) {
    const entry = (CATALOGUE as Record<string, (typeof CATALOGUE)[keyof typeof CATALOGUE] | undefined>)[key];
    if (!entry || entry.place.kind === "account") continue;
    const a = address.toLowerCase();
    venues.set(a, key);
    if (entry.passThrough) passThrough.add(a);
    if ("forwardsCalls" in entry && entry.forwardsCalls) forwarders.add(a);
    if (/^(pair_|v3_pool_|v3pool_)/.test(key)) pools.add(a);
    const readers = [
      ...(PAPER_POSITIONS[key] ?? []),
      ...(entry.holdings ?? [])
        .filter((h) => !/balanceOf/.test(h.signature))
        .map((h) => ({ key: h.key, signature: h.signature, token: unitToken(h.unit) })),
    ];
    if (readers.length) positions.set(a, readers);
    if (entry.token || entry.place.kind === "pair" || /pair_|vault/.test(key)) fungibles.push(a);
    symbols.set(a, entry.token?.symbol ?? key);
  }
  const made: LedgerWorld = {
    world,
    agent: world.agent.address.toLowerCase(),
    venues,
    passThrough,
    forwarders,
    pools,
    positions,
    fungibles,
    symbols,
  };
  worlds.set(world, made);
  return made;
}

/** An asset key as a person reads it: `USDT`, `QNFT #3`, `staked in simple_staking`. */
export function assetName(lw: LedgerWorld, asset: string): string {
  const [kind, contract, id] = asset.split(":") as [string, string | undefined, string | undefined];
  const sym = (a: string | undefined) => (a ? (lw.symbols.get(a) ?? a) : "?");
  switch (kind) {
    case "native":
      return "BNB (wei)";
    case "erc20":
      return `${sym(contract)} (raw units)`;
    case "erc721":
      return `${sym(contract)} #${id}`;
    case "erc1155":
      return `${sym(contract)} id ${id}`;
    case "position":
      return `${id} in ${sym(contract)}`;
    case "v3liquidity":
      return `liquidity of V3 position #${id}`;
    default:
      return asset;
  }
}

/** A short name for an address: "the agent", the catalogue key with the address, else the address. */
export function partyName(lw: LedgerWorld, a: string): string {
  if (a === lw.agent) return "the agent";
  const key = lw.venues.get(a);
  return key ? `${key} (${a})` : a;
}

/** True for a position the agent owes (a debt): more of it leaves the agent poorer. */
export function isLiability(lw: LedgerWorld, asset: string): boolean {
  if (!asset.startsWith("position:")) return false;
  const [, contract, key] = asset.split(":") as [string, string, string];
  return (lw.positions.get(contract) ?? []).some((r) => r.key === key && /\bdebtOf\(/.test(r.signature));
}
