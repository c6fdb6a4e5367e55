import type { Address } from "viem";
import { toUnits } from "../../expr/decimal.ts";

/**
 * Uniswap V3's price maths, exact and chain-free: a port of TickMath (v3-core 1.0.1), an integer
 * square root, and the conversions between a human price (whole quote tokens per whole base token)
 * and a pool's sqrt price and ticks. The checks that use it read the pool (v3PoolReads.ts) and
 * judge (v3Prices.ts, v3TwapGuard.ts).
 */

/** TickMath's bounds (v3-core 1.0.1). */
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;

/** 1/√1.0001^(2^i) in Q128.128, the factors of TickMath.getSqrtRatioAtTick (v3-core 1.0.1). */
const TICK_FACTORS = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

/** TickMath.getSqrtRatioAtTick: √1.0001^tick as a Q64.96, rounded up, exactly as the pool computes it. */
export function sqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) throw new RangeError(`tick ${tick}`);
  const abs = BigInt(Math.abs(tick));
  let ratio = abs & 1n ? TICK_FACTORS[0]! : 1n << 128n;
  for (let i = 1; i < TICK_FACTORS.length; i++)
    if (abs & (1n << BigInt(i))) ratio = (ratio * TICK_FACTORS[i]!) >> 128n;
  if (tick > 0) ratio = ((1n << 256n) - 1n) / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/** TickMath.getTickAtSqrtRatio: the greatest tick whose sqrt ratio is ≤ `sqrtPriceX96` (= ⌊log₁.₀₀₀₁ price⌋). */
export function tickAtSqrtRatio(sqrtPriceX96: bigint): number {
  let [lo, hi] = [MIN_TICK, MAX_TICK];
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (sqrtRatioAtTick(mid) <= sqrtPriceX96) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** ⌊√n⌋ for a bigint (Newton's method). */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

/** A pool's token order and the decimals of the two tokens a human price names. */
export type PricedPool = {
  pool: Address;
  baseIsToken0: boolean;
  baseDecimals: number;
  quoteDecimals: number;
  tickSpacing: number;
};

/**
 * The exact sqrtPriceX96 (⌊√(token1 units per token0 unit) · 2^96⌋) of a human price `price`
 * (whole quote tokens per whole base token, a decimal string): scaled by the decimals, and
 * inverted when the quote token is token0.
 */
export function sqrtPriceOfHumanPrice(price: string, p: PricedPool): bigint {
  const scaled = toUnits(price, 18); // price = scaled / 10^18
  if (scaled <= 0n) throw new RangeError(`price ${price} must be positive`);
  // quote units per base unit = scaled · 10^dq / (10^18 · 10^db)
  const num = scaled * 10n ** BigInt(p.quoteDecimals);
  const den = 10n ** BigInt(18 + p.baseDecimals);
  const [n, d] = p.baseIsToken0 ? [num, den] : [den, num];
  return isqrt((n << 192n) / d);
}

/**
 * The V3 range the hard prompts' rule gives for human prices `low`..`high`: each bound's tick is
 * ⌊log₁.₀₀₀₁(raw price)⌋ (TickMath.getTickAtSqrtRatio of its exact sqrt price); the smaller tick is
 * rounded down and the larger up to a multiple of the tick spacing (the range never shrinks).
 */
export function rangeOfHumanPrices(low: string, high: string, p: PricedPool): [number, number] {
  const [a, b] = [low, high].map((x) => tickAtSqrtRatio(sqrtPriceOfHumanPrice(x, p))) as [number, number];
  const s = p.tickSpacing;
  return [Math.floor(Math.min(a, b) / s) * s, Math.ceil(Math.max(a, b) / s) * s];
}

/** Quote-token smallest units per whole base token at `sqrtPriceX96`, rounded down. */
export function quoteUnitsPerBase(sqrtPriceX96: bigint, p: PricedPool): bigint {
  const one = 10n ** BigInt(p.baseDecimals);
  const square = sqrtPriceX96 * sqrtPriceX96;
  return p.baseIsToken0 ? (square * one) >> 192n : (one << 192n) / square;
}

/** ⌊a / b⌋ for bigints (b > 0): OracleLibrary.consult's rounding toward negative infinity. */
export const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));
