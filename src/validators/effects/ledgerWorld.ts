import type { Address } from "viem";
import { CATALOGUE } from "../../world/catalogue.ts";
import type { World } from "../../world/world.ts";

/** One per-account position reader of a catalogue contract: `signature` called with the account. */
export type PositionReader = { key: string; signature: string };

/** The paper world's staking positions (userInfo's first word is the staked amount). */
const PAPER_POSITIONS: Record<string, PositionReader[]> = {
  simple_staking: [{ key: "staked", signature: "function userInfo(address) view returns (uint256)" }],
  simple_lp_staking: [{ key: "staked", signature: "function userInfo(address) view returns (uint256)" }],
  simple_reward_pool: [{ key: "staked", signature: "function userInfo(address) view returns (uint256)" }],
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
  /** Liquidity pools (V2 pairs, V3 pools): a route may use any of them, so their flows are the market's. */
  pools: Set<string>;
  positions: Map<string, PositionReader[]>;
  /** ERC-20 contracts (tokens, V2 pairs, vault shares) the agent's assets are always read in. */
  fungibles: string[];
  symbols: Map<string, string>;
};

const worlds = new WeakMap<World, LedgerWorld>();

/** The catalogue's view of `world` for the ledger (memoised per world). */
export function ledgerWorld(world: World): LedgerWorld {
  const known = worlds.get(world);
  if (known) return known;
  const venues = new Map<string, string>();
  const passThrough = new Set<string>();
  const pools = new Set<string>();
  const positions = new Map<string, PositionReader[]>();
  const fungibles: string[] = [];
  const symbols = new Map<string, string>();
  for (const [key, address] of Object.entries(world.contracts) as [string, Address][]) {
    const entry = (CATALOGUE as Record<string, (typeof CATALOGUE)[keyof typeof CATALOGUE] | undefined>)[key];
    if (!entry || entry.place.kind === "account") continue;
    const a = address.toLowerCase();
    venues.set(a, key);
    if (entry.passThrough) passThrough.add(a);
    if (/^(pair_|v3_pool_|v3pool_)/.test(key)) pools.add(a);
    const readers = [
      ...(PAPER_POSITIONS[key] ?? []),
      ...(entry.holdings ?? [])
        .filter((h) => !/balanceOf/.test(h.signature))
        .map((h) => ({ key: h.key, signature: h.signature })),
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
    pools,
    positions,
    fungibles,
    symbols,
  };
  worlds.set(world, made);
  return made;
}
