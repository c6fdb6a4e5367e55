/**
 * The V2 pairs on a fork (README "Fork mode"): taken from the fork's factory (a missing one created
 * and seeded), the price P read off the pinned block, and the LP holdings minted through the router.
 */
import { type Address, getAddress, parseEther, zeroAddress } from "viem";
import { factoryAbi, pairAbi, routerAbi } from "../../abis.ts";
import type { Holding, Placement } from "../../catalogue.ts";
import { formatRatio, keysOfKind } from "../../catalogueViews.ts";
import {
  type ForkPairs,
  holdingStep,
  isAccount,
  LP_STOCK,
  lower,
  type Provisioning,
  stakedBy,
} from "../context.ts";

/** Far enough ahead for every router call while provisioning. */
const deadline = 2n ** 40n;

/**
 * Reads each catalogue pair from the factory (`getPair`); a pair the fork lacks is created, and a
 * pair without reserves is seeded with the catalogue's amounts by the treasury.
 *
 * Reads: `catalogue`, `contracts` (the pair's tokens). Writes: `contracts` (each pair), pairs on
 * the fork; `errors`.
 * @returns each pair's address and whether provisioning created it.
 */
export async function pairsFromFactory(p: Provisioning): Promise<ForkPairs> {
  const router = p.canonical.pancake_router!;
  const factory = p.canonical.pancake_factory!;
  const pairs = {} as ForkPairs;
  for (const key of keysOfKind("pair", p.catalogue)) {
    const { tokenA, tokenB, amountA, amountB } = p.catalogue[key]!.place as Extract<
      Placement,
      { kind: "pair" }
    >;
    await p.step(key, async () => {
      const [a, b] = [p.need(p.contracts[tokenA], tokenA), p.need(p.contracts[tokenB], tokenB)];
      let pair = getAddress(await p.read<Address>(factory, factoryAbi, "getPair", [a, b]));
      let created = false;
      if (pair === zeroAddress) {
        await p.call(p.signer.treasury, factory, factoryAbi, "createPair", [a, b]);
        pair = getAddress(await p.read<Address>(factory, factoryAbi, "getPair", [a, b]));
        created = true;
      }
      const [r0, r1] = await p.read<[bigint, bigint, number]>(pair, pairAbi, "getReserves");
      if (r0 === 0n || r1 === 0n)
        await p.call(p.signer.treasury, router, routerAbi, "addLiquidity", [
          a,
          b,
          parseEther(amountA),
          parseEther(amountB),
          0n,
          0n,
          p.accounts.treasury,
          deadline,
        ]);
      pairs[key] = { address: pair, created };
      p.contracts[key] = pair;
    });
  }
  return pairs;
}

/**
 * P, USDT per WBNB in `pair_wbnb_usdt`, a constant of the pinned block: read before provisioning
 * mints any LP.
 *
 * Reads: `contracts.pair_wbnb_usdt`. Writes: `errors`.
 * @returns P as world.json `constants.P` writes it ("0" when it could not be read).
 */
export async function readP(p: Provisioning): Promise<string> {
  let P = "0";
  await p.step("P", async () => {
    const pair = p.need(p.contracts.pair_wbnb_usdt, "pair_wbnb_usdt");
    const [token0, [r0, r1]] = await Promise.all([
      p.read<Address>(pair, pairAbi, "token0"),
      p.read<[bigint, bigint, number]>(pair, pairAbi, "getReserves"),
    ]);
    P = lower(token0) === lower(p.canonical.usdt!) ? formatRatio(r0, r1) : formatRatio(r1, r0);
  });
  return P;
}

/**
 * LP holdings: the treasury mints every holder's LP of a pair (the staked part included) plus its
 * {@link LP_STOCK} through the router, then hands the accounts theirs (contracts get theirs once
 * deployed, from the remaining holdings).
 *
 * Reads: `holdings`, `stakes`, `contracts` (the pairs). Writes: LP balances on the fork; `errors`.
 * @returns the LP holdings of accounts it handled.
 */
export async function mintLpHoldings(p: Provisioning): Promise<Holding[]> {
  const router = p.canonical.pancake_router!;
  /** The treasury mints ≥ `lp` wei of a pair's LP through the router (1 % over the pro-rata amounts). */
  async function mintLp(pair: Address, lp: bigint) {
    const [token0, token1, [r0, r1], supply] = await Promise.all([
      p.read<Address>(pair, pairAbi, "token0"),
      p.read<Address>(pair, pairAbi, "token1"),
      p.read<[bigint, bigint, number]>(pair, pairAbi, "getReserves"),
      p.read<bigint>(pair, pairAbi, "totalSupply"),
    ]);
    const desired = (reserve: bigint) => (((lp * reserve) / supply + 1n) * 101n) / 100n + 1_000n;
    await p.call(p.signer.treasury, router, routerAbi, "addLiquidity", [
      token0,
      token1,
      desired(r0),
      desired(r1),
      0n,
      0n,
      p.accounts.treasury,
      deadline,
    ]);
  }
  const pairKeys = new Set(keysOfKind("pair", p.catalogue));
  const minted = new Set<string>();
  const planted: Holding[] = [];
  for (const h of p.holdings.filter((h) => pairKeys.has(h.token))) {
    await p.step(holdingStep(h.holder, h.token), async () => {
      const pair = p.need(p.contracts[h.token], h.token);
      if (!minted.has(h.token)) {
        minted.add(h.token);
        const total = p.holdings
          .filter((x) => x.token === h.token)
          .reduce((sum, x) => sum + parseEther(x.amount) + stakedBy(p.stakes, x.holder, x.token), 0n);
        await mintLp(pair, total + LP_STOCK);
      }
      if (isAccount(h.holder))
        await p.call(p.signer.treasury, pair, pairAbi, "transfer", [
          p.accounts[h.holder],
          parseEther(h.amount) + stakedBy(p.stakes, h.holder, h.token),
        ]);
    });
    if (isAccount(h.holder)) planted.push(h);
  }
  return planted;
}
