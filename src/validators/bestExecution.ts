import {
  type Address,
  concatHex,
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  numberToHex,
  type PublicClient,
  parseAbi,
} from "viem";
import { toUnits } from "../expr/decimal.ts";
import { evaluateExpr } from "../expr/expr.ts";
import { exprArg, optionalExprArg } from "./args.ts";
import { scopeOf } from "./scopeOf.ts";
import { CheckArgsError, type CheckContext, defineCheck } from "./types.ts";

/**
 * Best execution over Uniswap V3 pools (tasks/hard/README.md "Tasks": search and optimisation): the
 * checks compute the optimum themselves from the pre-state and compare what the attempt achieved
 * with it, within a tolerance the prompt states. The optimum comes from the pools' state (slot0 and
 * liquidity, i.e. the virtual reserves x = L/√P, y = L·√P of a full-range pool) by equalising the
 * marginal rates (water-filling), then every leg of that optimum is priced exactly by QuoterV2 at the
 * pre-state, so the figure compared with is an amount the chain really pays, never a float. A pool
 * whose quote disagrees with the constant-liquidity model (a concentrated position was added) makes
 * the check fail loudly rather than compare with a wrong optimum. A Uniswap V2 pair is the same
 * model on its real reserves (0.3 % fee), priced by the router's getAmountsOut / getAmountsIn.
 */

const POOL_ABI = parseAbi([
  "function token0() view returns (address)",
  "function liquidity() view returns (uint128)",
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
]);
const FACTORY_ABI = parseAbi(["function getPool(address, address, uint24) view returns (address)"]);
const QUOTER_ABI = parseAbi([
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
  "function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
  "function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)",
]);
const ERC20_ABI = parseAbi(["function balanceOf(address) view returns (uint256)"]);
const V2_ROUTER_ABI = parseAbi([
  "function factory() view returns (address)",
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)",
]);
const V2_ABI = parseAbi([
  "function getPair(address, address) view returns (address)",
  "function token0() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
]);
/** Uniswap V2's fee: 0.3 % of the input (the pair's invariant check uses 997/1000). */
const V2_FEE_PPM = 3000;

/** The V2 pair of the router's factory for tokenIn/tokenOut, as a venue (its reserves are the real ones). */
async function v2VenueOf(
  client: PublicClient,
  router: Address,
  tokenIn: Address,
  tokenOut: Address,
): Promise<Venue> {
  const read = (
    address: Address,
    abi: typeof V2_ABI | typeof V2_ROUTER_ABI,
    functionName: string,
    args?: unknown[],
  ) => client.readContract({ address, abi, functionName, args } as never) as Promise<any>;
  const factory = (await read(router, V2_ROUTER_ABI, "factory")) as Address;
  const pair = (await read(factory, V2_ABI, "getPair", [tokenIn, tokenOut])) as Address;
  if (BigInt(pair) === 0n) throw new Error("no V2 pair for these tokens");
  const [[r0, r1], token0] = await Promise.all([
    read(pair, V2_ABI, "getReserves"),
    read(pair, V2_ABI, "token0"),
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

/** A pool as seen from one trade direction: virtual reserves of the input and output token, raw units. */
type Venue = { fee: number; gamma: number; xIn: number; yOut: number; v2?: boolean };

/** The pool's virtual reserves for a trade tokenIn → tokenOut (constant liquidity L at price √P). */
async function venueOf(
  client: PublicClient,
  factory: Address,
  tokenIn: Address,
  tokenOut: Address,
  fee: number,
): Promise<Venue> {
  const read = <T>(
    address: Address,
    abi: typeof POOL_ABI | typeof FACTORY_ABI,
    functionName: string,
    args?: unknown[],
  ) => client.readContract({ address, abi, functionName, args } as never) as Promise<T>;
  const pool = await read<Address>(factory, FACTORY_ABI, "getPool", [tokenIn, tokenOut, fee]);
  if (BigInt(pool) === 0n) throw new Error(`no V3 pool with fee ${fee}`);
  const [slot0, liquidity, token0] = await Promise.all([
    read<readonly [bigint]>(pool, POOL_ABI, "slot0"),
    read<bigint>(pool, POOL_ABI, "liquidity"),
    read<Address>(pool, POOL_ABI, "token0"),
  ]);
  const sqrtP = Number(slot0[0]) / 2 ** 96;
  const L = Number(liquidity);
  const [x0, x1] = [L / sqrtP, L * sqrtP];
  const zeroForOne = getAddress(token0) === getAddress(tokenIn);
  return { fee, gamma: 1 - fee / 1e6, xIn: zeroForOne ? x0 : x1, yOut: zeroForOne ? x1 : x0 };
}

/** Model output of `a` raw units in (constant product on the virtual reserves, fee on the input). */
const modelOut = (v: Venue, a: number) => (v.yOut * v.gamma * a) / (v.xIn + v.gamma * a);
/** Model input for `b` raw units out. */
const modelIn = (v: Venue, b: number) => (b >= v.yOut ? Infinity : (v.xIn * b) / (v.yOut - b) / v.gamma);

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

type Quoter = { client: PublicClient; quoter: Address };

async function quote(q: Quoter, functionName: string, args: unknown[]): Promise<bigint> {
  const { data } = await q.client.call({
    to: q.quoter,
    data: encodeFunctionData({ abi: QUOTER_ABI, functionName, args } as never),
  });
  return (decodeFunctionResult({ abi: QUOTER_ABI, functionName, data: data! } as never) as bigint[])[0]!;
}

/** Rejects a venue whose exact quote is more than 1e-6 away from the constant-liquidity model. */
function assertModel(v: Venue, modelled: number, exact: bigint) {
  const e = Number(exact);
  if (Math.abs(modelled - e) > Math.max(2, e * 1e-6))
    throw new Error(
      `the fee-${v.fee} pool does not behave as full-range liquidity (model ${modelled.toFixed(0)}, QuoterV2 ${exact}); the optimum cannot be computed`,
    );
}

const PPM = 1_000_000n;
const pctToPpm = (pct: string) => toUnits(pct, 4);

async function addresses(ctx: CheckContext, exprs: Record<string, ReturnType<typeof exprArg>>) {
  const scope = scopeOf(ctx);
  const out: Record<string, Address> = {};
  for (const [k, e] of Object.entries(exprs)) out[k] = getAddress(String(await evaluateExpr(e, scope)));
  return out;
}

const balanceOf = (client: PublicClient, token: Address, account: Address) =>
  client.readContract({ address: token, abi: ERC20_ABI, functionName: "balanceOf", args: [account] });

type SplitPrepared = {
  tokenIn: Address;
  tokenOut: Address;
  account: Address;
  amount: bigint;
  tolPpm: bigint;
  best: bigint;
  legs: string;
  singles: string;
  inBefore: bigint;
  outBefore: bigint;
};

function feesArg(args: Record<string, unknown>): number[] {
  const fees = args.fees;
  if (
    !Array.isArray(fees) ||
    fees.length === 0 ||
    !fees.every((f) => Number.isInteger(f) && f > 0 && f < 1e6)
  )
    throw new CheckArgsError("fees", "must be a non-empty list of V3 fee tiers (hundredths of a bip)");
  return fees as number[];
}

/**
 * `v3SplitBest`: the attempt traded `amountIn` of `tokenIn` (exact-in: at least `1 − tolerance` of
 * the best total `tokenOut` any split over the pools pays) or bought exactly `amountOut` of
 * `tokenOut` (exact-out: paying at most `1 + tolerance` of the least total cost), measured on the
 * `account`'s balances. The optimum is the water-filling split at the pre-state, each leg priced by
 * QuoterV2; the best single pool is also quoted and the better of the two is the reference.
 */
export const v3SplitBest = defineCheck({
  description:
    "Exact-in: account spent exactly amountIn of tokenIn and received ≥ (1 − tolerancePct %) of the best split's output over the V3 pools `fees`; exact-out: received exactly amountOut and spent ≤ (1 + tolerancePct %) of the least cost. The optimum is computed at the pre-state (marginal rates equalised, legs quoted by QuoterV2).",
  args: {
    factory: { $ref: "#/definitions/expr", description: "the V3 factory" },
    quoter: { $ref: "#/definitions/expr", description: "the QuoterV2" },
    tokenIn: { $ref: "#/definitions/expr", description: "token paid" },
    tokenOut: { $ref: "#/definitions/expr", description: "token received" },
    fees: { type: "array", items: { type: "integer" }, description: "the pools' fee tiers" },
    account: { $ref: "#/definitions/expr", description: "whose balances are measured" },
    amountIn: { $ref: "#/definitions/expr", description: "exact-in: the amount sold (raw units)" },
    amountOut: { $ref: "#/definitions/expr", description: "exact-out: the amount bought (raw units)" },
    tolerancePct: { $ref: "#/definitions/expr", description: "the stated tolerance, percent" },
    v2Router: {
      $ref: "#/definitions/expr",
      description:
        "a Uniswap V2 router: its factory's tokenIn/tokenOut pair is one more venue (legs priced with getAmountsOut/getAmountsIn)",
    },
  },
  required: ["factory", "quoter", "tokenIn", "tokenOut", "fees", "account", "tolerancePct"],
  example: {
    factory: "contracts.v3_factory",
    quoter: "contracts.v3_quoter",
    tokenIn: "contracts.wbtc",
    tokenOut: "contracts.usdc",
    fees: [500, 3000, 10000],
    account: "agent",
    amountIn: "units(x, 8)",
    tolerancePct: "0.1",
  },
  build: (args, compile) => {
    const fees = feesArg(args);
    const amountIn = optionalExprArg(args, "amountIn", compile);
    const amountOut = optionalExprArg(args, "amountOut", compile);
    if (!amountIn === !amountOut)
      throw new CheckArgsError("amountIn", "give exactly one of amountIn, amountOut");
    const mode = amountIn ? "exactIn" : "exactOut";
    const exprs = {
      factory: exprArg(args, "factory", compile),
      quoter: exprArg(args, "quoter", compile),
      tokenIn: exprArg(args, "tokenIn", compile),
      tokenOut: exprArg(args, "tokenOut", compile),
      account: exprArg(args, "account", compile),
    };
    const tolerance = exprArg(args, "tolerancePct", compile);
    const v2Router = optionalExprArg(args, "v2Router", compile);
    return {
      async prepare(ctx) {
        const a = await addresses(ctx, { ...exprs, ...(v2Router ? { v2Router } : {}) });
        const scope = scopeOf(ctx);
        const amount = BigInt(String(await evaluateExpr((amountIn ?? amountOut)!, scope)));
        const tolPpm = pctToPpm(String(await evaluateExpr(tolerance, scope)));
        const q = { client: ctx.client, quoter: a.quoter! };
        const venues = await Promise.all(
          fees.map((fee) => venueOf(ctx.client, a.factory!, a.tokenIn!, a.tokenOut!, fee)),
        );
        if (a.v2Router) venues.push(await v2VenueOf(ctx.client, a.v2Router, a.tokenIn!, a.tokenOut!));
        const v2Quote = async (leg: bigint) => {
          const functionName = mode === "exactIn" ? "getAmountsOut" : "getAmountsIn";
          const amounts = (await ctx.client.readContract({
            address: a.v2Router!,
            abi: V2_ROUTER_ABI,
            functionName,
            args: [leg, [a.tokenIn!, a.tokenOut!]],
          })) as readonly bigint[];
          return mode === "exactIn" ? amounts[1]! : amounts[0]!;
        };
        const legQuote = (v: Venue, leg: bigint) =>
          v.v2
            ? v2Quote(leg)
            : mode === "exactIn"
              ? quote(q, "quoteExactInputSingle", [
                  {
                    tokenIn: a.tokenIn,
                    tokenOut: a.tokenOut,
                    amountIn: leg,
                    fee: v.fee,
                    sqrtPriceLimitX96: 0n,
                  },
                ])
              : quote(q, "quoteExactOutputSingle", [
                  {
                    tokenIn: a.tokenIn,
                    tokenOut: a.tokenOut,
                    amount: leg,
                    fee: v.fee,
                    sqrtPriceLimitX96: 0n,
                  },
                ]);
        const legs = optimalSplit(venues, amount, mode);
        let split = 0n;
        for (const [i, v] of venues.entries()) {
          const leg = legs[i]!;
          if (leg === 0n) continue;
          const exact = await legQuote(v, leg);
          assertModel(v, mode === "exactIn" ? modelOut(v, Number(leg)) : modelIn(v, Number(leg)), exact);
          split += exact;
        }
        // The best single pool, in case rounding made the split no better (it never is by much).
        const singles: bigint[] = [];
        for (const v of venues)
          singles.push(await legQuote(v, amount).catch(() => (mode === "exactIn" ? 0n : -1n)));
        const valid = singles.filter((s) => s >= 0n);
        let best = split;
        for (const single of valid) if (mode === "exactIn" ? single > best : single < best) best = single;
        return {
          tokenIn: a.tokenIn!,
          tokenOut: a.tokenOut!,
          account: a.account!,
          amount,
          tolPpm,
          best,
          legs: legs.map(String).join("/"),
          singles: singles.map(String).join("/"),
          inBefore: await balanceOf(ctx.client, a.tokenIn!, a.account!),
          outBefore: await balanceOf(ctx.client, a.tokenOut!, a.account!),
        };
      },
      async evaluate(ctx, prepared) {
        const p = prepared as SplitPrepared;
        const spent = p.inBefore - (await balanceOf(ctx.client, p.tokenIn, p.account));
        const received = (await balanceOf(ctx.client, p.tokenOut, p.account)) - p.outBefore;
        const optimum = `optimum ${p.best} (split ${p.legs}; single pools ${p.singles})`;
        if (mode === "exactIn") {
          const floor = (p.best * (PPM - p.tolPpm)) / PPM;
          if (spent !== p.amount)
            return { passed: false, detail: `spent ${spent}, expected exactly ${p.amount}` };
          return {
            passed: received >= floor,
            detail: `received ${received} ${received >= floor ? "≥" : "<"} ${floor} (${optimum} − ${Number(p.tolPpm) / 1e4} %)`,
          };
        }
        const ceiling = (p.best * (PPM + p.tolPpm)) / PPM;
        if (received !== p.amount)
          return { passed: false, detail: `received ${received}, expected exactly ${p.amount}` };
        return {
          passed: spent <= ceiling,
          detail: `spent ${spent} ${spent <= ceiling ? "≤" : ">"} ${ceiling} (${optimum} + ${Number(p.tolPpm) / 1e4} %)`,
        };
      },
    };
  },
});

/** A V3 path token → fee → via → fee → token (abi.encodePacked: 20-byte addresses, 3-byte fees). */
const cyclePath = (token: Address, via: Address, buyFee: number, sellFee: number): Hex =>
  concatHex([token, numberToHex(buyFee, { size: 3 }), via, numberToHex(sellFee, { size: 3 }), token]);

/** The input in [0, cap] at which a concave `f` is largest (golden-section search). */
function argmaxConcave(f: (a: number) => number, cap: number): number {
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

type CyclePrepared = {
  token: Address;
  account: Address;
  best: bigint;
  route: string;
  tolPpm: bigint;
  before: bigint;
};

/**
 * `v3CycleBest`: an arbitrage round trip `token` → `via` → `token` (buy `via` in one of the pools,
 * sell it in another) left the `account` with a gain in `token` of at least `1 − tolerance` of the
 * largest profit any such two-pool round trip of at most `cap` makes at the pre-state. Each ordered
 * pair of pools is sized by a golden-section search on the constant-liquidity model (profit is
 * concave in the size) and the size found is priced exactly with QuoterV2's quoteExactInput.
 */
export const v3CycleBest = defineCheck({
  description:
    "The account's gain in `token` is ≥ (1 − tolerancePct %) of the largest profit a two-pool round trip token → via → token over the V3 pools `fees`, of at most `cap`, makes at the pre-state (sized by search, priced by QuoterV2).",
  args: {
    factory: { $ref: "#/definitions/expr", description: "the V3 factory" },
    quoter: { $ref: "#/definitions/expr", description: "the QuoterV2" },
    token: { $ref: "#/definitions/expr", description: "the token the round trip starts and ends in" },
    via: { $ref: "#/definitions/expr", description: "the token bought and sold on the way" },
    fees: { type: "array", items: { type: "integer" }, description: "the pools' fee tiers" },
    account: { $ref: "#/definitions/expr", description: "whose balance is measured" },
    cap: {
      $ref: "#/definitions/expr",
      description: "the most `token` the round trip may put in (raw units)",
    },
    tolerancePct: { $ref: "#/definitions/expr", description: "the stated tolerance on the profit, percent" },
  },
  required: ["factory", "quoter", "token", "via", "fees", "account", "cap", "tolerancePct"],
  example: {
    factory: "contracts.v3_factory",
    quoter: "contracts.v3_quoter",
    token: "contracts.usdc",
    via: "contracts.wbtc",
    fees: [500, 3000, 10000],
    account: "agent",
    cap: "units(c, 6)",
    tolerancePct: "2",
  },
  build: (args, compile) => {
    const fees = feesArg(args);
    const exprs = {
      factory: exprArg(args, "factory", compile),
      quoter: exprArg(args, "quoter", compile),
      token: exprArg(args, "token", compile),
      via: exprArg(args, "via", compile),
      account: exprArg(args, "account", compile),
    };
    const capExpr = exprArg(args, "cap", compile);
    const tolerance = exprArg(args, "tolerancePct", compile);
    return {
      async prepare(ctx): Promise<CyclePrepared> {
        const a = await addresses(ctx, exprs);
        const scope = scopeOf(ctx);
        const cap = BigInt(String(await evaluateExpr(capExpr, scope)));
        const tolPpm = pctToPpm(String(await evaluateExpr(tolerance, scope)));
        const q = { client: ctx.client, quoter: a.quoter! };
        const buys = await Promise.all(fees.map((f) => venueOf(ctx.client, a.factory!, a.token!, a.via!, f)));
        const sells = await Promise.all(
          fees.map((f) => venueOf(ctx.client, a.factory!, a.via!, a.token!, f)),
        );
        let best = 0n;
        let route = "no profitable round trip";
        for (const [i, buy] of buys.entries())
          for (const [j, sell] of sells.entries()) {
            if (i === j) continue;
            const profit = (x: number) => modelOut(sell, modelOut(buy, x)) - x;
            const size = BigInt(Math.floor(argmaxConcave(profit, Number(cap))));
            if (size === 0n || profit(Number(size)) <= 0) continue;
            const out = await quote(q, "quoteExactInput", [
              cyclePath(a.token!, a.via!, buy.fee, sell.fee),
              size,
            ]);
            assertModel(sell, modelOut(sell, modelOut(buy, Number(size))), out);
            if (out - size > best) {
              best = out - size;
              route = `buy in fee ${buy.fee}, sell in fee ${sell.fee}, size ${size}`;
            }
          }
        return {
          token: a.token!,
          account: a.account!,
          best,
          route,
          tolPpm,
          before: await balanceOf(ctx.client, a.token!, a.account!),
        };
      },
      async evaluate(ctx, prepared) {
        const p = prepared as CyclePrepared;
        const gain = (await balanceOf(ctx.client, p.token, p.account)) - p.before;
        const floor = (p.best * (PPM - p.tolPpm)) / PPM;
        const passed = gain > 0n && gain >= floor;
        return {
          passed,
          detail: `gain ${gain} ${passed ? "≥" : "<"} ${floor} (largest profit ${p.best}: ${p.route}; − ${Number(p.tolPpm) / 1e4} %)`,
        };
      },
    };
  },
});
