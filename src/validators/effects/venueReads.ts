import type { Address, PublicClient } from "viem";
import { V2_PAIR_ABI } from "../abi.ts";
import { settledRead } from "./ledgerReads.ts";
import type { LedgerWorld } from "./ledgerWorld.ts";

/**
 * What the effect ledger reads of the world's pools to judge them as parties (docs/SCORING.md
 * "Effect ledger", rule 2): which two tokens each pool trades, and how much of a V2 pair's balance
 * its reserves do not hold (what `skim` gives anyone).
 */

const tokensOf = new WeakMap<LedgerWorld, Promise<Map<string, readonly [string, string]>>>();

/**
 * token0 and token1 (lower-case) of every catalogue pool, V2 pair and V3 pool alike, that exists on
 * `client`'s chain at `block` (read once per world: a pool's tokens never change).
 */
export function poolTokens(
  client: PublicClient,
  lw: LedgerWorld,
  block: bigint,
): Promise<Map<string, readonly [string, string]>> {
  const known = tokensOf.get(lw);
  if (known) return known;
  const made = (async () => {
    const out = new Map<string, readonly [string, string]>();
    await Promise.all(
      [...lw.pools].map(async (pool) => {
        const read = (functionName: "token0" | "token1") =>
          settledRead(
            async () =>
              (
                await client.readContract({
                  address: pool as Address,
                  abi: V2_PAIR_ABI,
                  functionName,
                  blockNumber: block,
                })
              ).toLowerCase(),
            undefined,
          );
        const [t0, t1] = await Promise.all([read("token0"), read("token1")]);
        // not deployed on this chain (a fork without the hard world): judged without its tokens
        if (t0 && t1) out.set(pool, [t0, t1] as const);
      }),
    );
    return out;
  })();
  tokensOf.set(lw, made);
  made.catch(() => tokensOf.delete(lw));
  return made;
}

/**
 * For each V2 pair of `pairs`: token → the largest growth, from `fromBlock` to the end of any block of
 * (`fromBlock`, `toBlock`], of the pair's balance less its reserve (`balanceOf(pair) − getReserves()`).
 * Swaps, mints, burns and `sync` leave it unchanged; a payment into the pair that no trade took raises
 * it, and anyone may `skim` it from then on, even if a later mint of the attempt absorbs it.
 */
export async function pairExcess(
  client: PublicClient,
  tokens: ReadonlyMap<string, readonly [string, string]>,
  pairs: readonly string[],
  fromBlock: bigint,
  toBlock: bigint,
): Promise<Map<string, Map<string, bigint>>> {
  const excessAt = async (pair: string, [t0, t1]: readonly [string, string], block: bigint) => {
    const call = <T>(address: string, functionName: string, args: unknown[]) =>
      settledRead(
        () =>
          client.readContract({
            address: address as Address,
            abi: V2_PAIR_ABI,
            functionName: functionName as never,
            args: args as never,
            blockNumber: block,
          }) as Promise<T>,
        undefined,
      );
    const [reserves, b0, b1] = await Promise.all([
      call<readonly bigint[]>(pair, "getReserves", []),
      call<bigint>(t0, "balanceOf", [pair]),
      call<bigint>(t1, "balanceOf", [pair]),
    ]);
    if (!reserves || b0 === undefined || b1 === undefined) return undefined;
    return [b0 - reserves[0]!, b1 - reserves[1]!] as const;
  };
  const out = new Map<string, Map<string, bigint>>();
  await Promise.all(
    pairs.map(async (pair) => {
      const pairTokens = tokens.get(pair);
      if (!pairTokens) return;
      const blocks: bigint[] = [];
      for (let b = fromBlock + 1n; b <= toBlock; b++) blocks.push(b);
      const [before, ...later] = await Promise.all(
        [fromBlock, ...blocks].map((b) => excessAt(pair, pairTokens, b)),
      );
      if (!before) return;
      const grown = [0n, 0n];
      for (const after of later)
        for (const i of [0, 1] as const)
          if (after && after[i] - before[i] > grown[i]!) grown[i] = after[i] - before[i];
      out.set(
        pair,
        new Map([
          [pairTokens[0], grown[0]!],
          [pairTokens[1], grown[1]!],
        ]),
      );
    }),
  );
  return out;
}
