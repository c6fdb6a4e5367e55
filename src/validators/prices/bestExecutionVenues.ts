import { type Address, decodeFunctionResult, encodeFunctionData, getAddress, type PublicClient } from "viem";
import {
  QUOTER_V2_ABI,
  V2_FACTORY_ABI,
  V2_PAIR_ABI,
  V2_ROUTER_VIEWS_ABI,
  V3_FACTORY_ABI,
  V3_POOL_ABI,
} from "../abi.ts";
import { V2_FEE_PPM, type Venue } from "./bestExecutionMath.ts";

/**
 * The venues best execution compares, read from the chain at the pre-state: a V3 pool's virtual
 * reserves from slot0 and liquidity, a V2 pair's real reserves, and QuoterV2's exact quotes.
 */

/** The V2 pair of the router's factory for tokenIn/tokenOut, as a venue (its reserves are the real ones). */
export async function v2VenueOf(
  client: PublicClient,
  router: Address,
  tokenIn: Address,
  tokenOut: Address,
): Promise<Venue> {
  const read = (
    address: Address,
    abi: typeof V2_FACTORY_ABI | typeof V2_PAIR_ABI | typeof V2_ROUTER_VIEWS_ABI,
    functionName: string,
    args?: unknown[],
  ) => client.readContract({ address, abi, functionName, args } as never) as Promise<any>;
  const factory = (await read(router, V2_ROUTER_VIEWS_ABI, "factory")) as Address;
  const pair = (await read(factory, V2_FACTORY_ABI, "getPair", [tokenIn, tokenOut])) as Address;
  if (BigInt(pair) === 0n) throw new Error("no V2 pair for these tokens");
  const [[r0, r1], token0] = await Promise.all([
    read(pair, V2_PAIR_ABI, "getReserves"),
    read(pair, V2_PAIR_ABI, "token0"),
  ]);
  const zeroForOne = getAddress(token0) === getAddress(tokenIn);
  return {
    fee: V2_FEE_PPM,
    gamma: 1 - V2_FEE_PPM / 1e6,
    xIn: Number(zeroForOne ? r0 : r1),
    yOut: Number(zeroForOne ? r1 : r0),
    v2: true,
  };
}

/** The pool's virtual reserves for a trade tokenIn → tokenOut (constant liquidity L at price √P). */
export async function venueOf(
  client: PublicClient,
  factory: Address,
  tokenIn: Address,
  tokenOut: Address,
  fee: number,
): Promise<Venue> {
  const read = <T>(
    address: Address,
    abi: typeof V3_POOL_ABI | typeof V3_FACTORY_ABI,
    functionName: string,
    args?: unknown[],
  ) => client.readContract({ address, abi, functionName, args } as never) as Promise<T>;
  const pool = await read<Address>(factory, V3_FACTORY_ABI, "getPool", [tokenIn, tokenOut, fee]);
  if (BigInt(pool) === 0n) throw new Error(`no V3 pool with fee ${fee}`);
  const [slot0, liquidity, token0] = await Promise.all([
    read<readonly [bigint]>(pool, V3_POOL_ABI, "slot0"),
    read<bigint>(pool, V3_POOL_ABI, "liquidity"),
    read<Address>(pool, V3_POOL_ABI, "token0"),
  ]);
  const sqrtP = Number(slot0[0]) / 2 ** 96;
  const L = Number(liquidity);
  const [x0, x1] = [L / sqrtP, L * sqrtP];
  const zeroForOne = getAddress(token0) === getAddress(tokenIn);
  return { fee, gamma: 1 - fee / 1e6, xIn: zeroForOne ? x0 : x1, yOut: zeroForOne ? x1 : x0 };
}

export type Quoter = { client: PublicClient; quoter: Address };

export async function quote(q: Quoter, functionName: string, args: unknown[]): Promise<bigint> {
  const { data } = await q.client.call({
    to: q.quoter,
    data: encodeFunctionData({ abi: QUOTER_V2_ABI, functionName, args } as never),
  });
  return (decodeFunctionResult({ abi: QUOTER_V2_ABI, functionName, data: data! } as never) as bigint[])[0]!;
}
