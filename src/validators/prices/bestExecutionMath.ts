import { type Address, concatHex, type Hex, numberToHex } from "viem";

/**
 * Best execution's maths, chain-free: a pool seen from one trade direction as virtual reserves
 * (x = L/√P, y = L·√P of a full-range V3 pool, or a V2 pair's real reserves), constant-product
 * output and input with the fee on the input, the split of an amount that equalises the marginal
 * rates (water-filling), the size that maximises a concave round-trip profit, and the check that an
 * exact quote agrees with the model. The checks (bestExecution.ts) read the pools
 * (bestExecutionVenues.ts) and price every leg exactly with QuoterV2.
 */

/** Uniswap V2's fee: 0.3 % of the input (the pair's invariant check uses 997/1000). */
export const V2_FEE_PPM = 3000;

/** A pool as seen from one trade direction: virtual reserves of the input and output token, raw units. */
export type Venue = { fee: number; gamma: number; xIn: number; yOut: number; v2?: boolean };

/** Model output of `a` raw units in (constant product on the virtual reserves, fee on the input). */
export const modelOut = (v: Venue, a: number) => (v.yOut * v.gamma * a) / (v.xIn + v.gamma * a);
/** Model input for `b` raw units out. */
export const modelIn = (v: Venue, b: number) =>
  b >= v.yOut ? Infinity : (v.xIn * b) / (v.yOut - b) / v.gamma;

/** Bisection on a monotone `total(λ)` for the λ at which it reaches `target` (λ on a log scale). */
function solve(total: (lambda: number) => number, target: number, increasing: boolean): number {
  let [lo, hi] = [-60, 60]; // log λ
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    const t = total(Math.exp(mid));
    if (t < target === increasing) lo = mid;
    else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}

/**
 * Splits `total` raw units over the venues so the marginal rates are equal (the optimum of a sum
 * of concave outputs, or of convex costs): exact-in allocates input, exact-out allocates output.
 * Integer legs summing to `total` exactly (the remainder goes to the largest leg).
 */
export function optimalSplit(venues: Venue[], total: bigint, mode: "exactIn" | "exactOut"): bigint[] {
  const t = Number(total);
  const share =
    mode === "exactIn"
      ? // out'(a) = y·x·γ / (x + γa)² = λ  ⇒  a = (√(y·x·γ/λ) − x) / γ
        (v: Venue, l: number) => Math.max(0, (Math.sqrt((v.yOut * v.xIn * v.gamma) / l) - v.xIn) / v.gamma)
      : // in'(b) = x·y / (γ (y − b)²) = μ  ⇒  b = y − √(x·y / (γμ))
        (v: Venue, m: number) => Math.max(0, v.yOut - Math.sqrt((v.xIn * v.yOut) / (v.gamma * m)));
  const sum = (l: number) => venues.reduce((s, v) => s + share(v, l), 0);
  const lambda = solve(sum, t, mode === "exactOut");
  const legs = venues.map((v) => BigInt(Math.floor(Math.min(share(v, lambda), t))));
  const rest = total - legs.reduce((s, x) => s + x, 0n);
  let largest = 0;
  for (const [i, leg] of legs.entries()) if (leg > legs[largest]!) largest = i;
  legs[largest]! += rest;
  return legs;
}

/** Rejects a venue whose exact quote is more than 1e-6 away from the constant-liquidity model. */
export function assertModel(v: Venue, modelled: number, exact: bigint) {
  const e = Number(exact);
  if (Math.abs(modelled - e) > Math.max(2, e * 1e-6))
    throw new Error(
      `the fee-${v.fee} pool does not behave as full-range liquidity (model ${modelled.toFixed(0)}, QuoterV2 ${exact}); the optimum cannot be computed`,
    );
}

/** A V3 path token → fee → via → fee → token (abi.encodePacked: 20-byte addresses, 3-byte fees). */
export const cyclePath = (token: Address, via: Address, buyFee: number, sellFee: number): Hex =>
  concatHex([token, numberToHex(buyFee, { size: 3 }), via, numberToHex(sellFee, { size: 3 }), token]);

/** The input in [0, cap] at which a concave `f` is largest (golden-section search). */
export function argmaxConcave(f: (a: number) => number, cap: number): number {
  const r = (Math.sqrt(5) - 1) / 2;
  let [lo, hi] = [0, cap];
  for (let i = 0; i < 200; i++) {
    const m1 = hi - r * (hi - lo);
    const m2 = lo + r * (hi - lo);
    if (f(m1) < f(m2)) lo = m1;
    else hi = m2;
  }
  return (lo + hi) / 2;
}
