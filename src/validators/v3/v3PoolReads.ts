import { type Address, getAddress } from "viem";
import { DECIMALS_ABI, V3_POOL_ABI } from "../abi.ts";
import type { CheckContext } from "../types.ts";
import { floorDiv, type PricedPool } from "./v3Math.ts";

/**
 * A V3 pool as the price checks name and read it: the arguments that name it and the human price's
 * base token, its price, its token order and decimals, its oracle.
 */

/** The arguments naming a pool and the token a human price is per. */
export const POOL_ARGS = {
  pool: { $ref: "#/definitions/expr", description: "the V3 pool" },
  base: {
    $ref: "#/definitions/expr",
    description:
      "the token the human price is per (e.g. WBTC in 'USDC per WBTC'); the other is the pool's other token",
  },
} as const;

/** The pool's slot0 sqrtPriceX96 (at `pre` in prepare, `post` in evaluate). */
export async function sqrtPriceOf(ctx: CheckContext, pool: Address): Promise<bigint> {
  const [sqrt] = (await ctx.client.readContract({
    address: pool,
    abi: V3_POOL_ABI,
    functionName: "slot0",
  })) as readonly [bigint, ...unknown[]];
  return sqrt;
}

/** Reads what {@link PricedPool} needs from the chain (at the context's `pre` when called in prepare). */
export async function readPricedPool(
  ctx: CheckContext,
  pool: Address,
  base: Address,
): Promise<PricedPool & { quote: Address }> {
  const read = (address: Address, abi: typeof V3_POOL_ABI | typeof DECIMALS_ABI, functionName: string) =>
    ctx.client.readContract({ address, abi, functionName } as never) as Promise<any>;
  const [token0, token1, spacing] = await Promise.all([
    read(pool, V3_POOL_ABI, "token0"),
    read(pool, V3_POOL_ABI, "token1"),
    read(pool, V3_POOL_ABI, "tickSpacing"),
  ]);
  const baseIsToken0 = getAddress(token0) === base;
  if (!baseIsToken0 && getAddress(token1) !== base) throw new Error(`${base} is not a token of pool ${pool}`);
  const quote = getAddress(baseIsToken0 ? token1 : token0);
  const [baseDecimals, quoteDecimals] = await Promise.all([
    read(base, DECIMALS_ABI, "decimals"),
    read(quote, DECIMALS_ABI, "decimals"),
  ]);
  return {
    pool,
    quote,
    baseIsToken0,
    baseDecimals: Number(baseDecimals),
    quoteDecimals: Number(quoteDecimals),
    tickSpacing: Number(spacing),
  };
}

/**
 * The pool's arithmetic-mean tick over the last `window` seconds, as OracleLibrary.consult computes
 * it: observe([window, 0]), (tickCumulatives[1] − tickCumulatives[0]) / window rounded toward −∞.
 */
export async function twapTick(ctx: CheckContext, pool: Address, window: number): Promise<number> {
  const [cumulatives] = (await ctx.client.readContract({
    address: pool,
    abi: V3_POOL_ABI,
    functionName: "observe",
    args: [[window, 0]],
  })) as readonly [readonly bigint[], unknown];
  return Number(floorDiv(cumulatives[1]! - cumulatives[0]!, BigInt(window)));
}
