import { type Address, getAddress, parseAbi } from "viem";
import { toUnits } from "../expr/decimal.ts";
import { evaluateExpr } from "../expr/expr.ts";
import { readAnswerField } from "./answer.ts";
import { exprArg } from "./args.ts";
import { scopeOf } from "./scopeOf.ts";
import { CheckArgsError, type CheckContext, defineCheck } from "./types.ts";
import { checkV3Bounds } from "./v3Bounds.ts";
import { newestPositionId, readPosition } from "./v3Positions.ts";

const POOL_ABI = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
]);
const DECIMALS_ABI = parseAbi(["function decimals() view returns (uint8)"]);

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

/** The pool's slot0 sqrtPriceX96 (at `pre` in prepare, `post` in evaluate). */
async function sqrtPriceOf(ctx: CheckContext, pool: Address): Promise<bigint> {
  const [sqrt] = (await ctx.client.readContract({
    address: pool,
    abi: POOL_ABI,
    functionName: "slot0",
  })) as readonly [bigint, ...unknown[]];
  return sqrt;
}

/** Reads what {@link PricedPool} needs from the chain (at the context's `pre` when called in prepare). */
async function readPricedPool(
  ctx: CheckContext,
  pool: Address,
  base: Address,
): Promise<PricedPool & { quote: Address }> {
  const read = (address: Address, abi: typeof POOL_ABI | typeof DECIMALS_ABI, functionName: string) =>
    ctx.client.readContract({ address, abi, functionName } as never) as Promise<any>;
  const [token0, token1, spacing] = await Promise.all([
    read(pool, POOL_ABI, "token0"),
    read(pool, POOL_ABI, "token1"),
    read(pool, POOL_ABI, "tickSpacing"),
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

const POOL_ARGS = {
  pool: { $ref: "#/definitions/expr", description: "the V3 pool" },
  base: {
    $ref: "#/definitions/expr",
    description:
      "the token the human price is per (e.g. WBTC in 'USDC per WBTC'); the other is the pool's other token",
  },
} as const;

/**
 * "A position between human prices" (tasks/hard/README.md "Tasks"): the `owner`'s newest position of
 * `positions` (at `post`) is in `pool` (its token0, token1 and fee) with exactly the ticks
 * {@link rangeOfHumanPrices} gives for `priceLow`..`priceHigh` (whole quote per whole base), and
 * liquidity > 0. The ticks come from the pool's token order and the tokens' decimals read at `pre`,
 * so a range whose price was not inverted or not scaled, or rounded inwards, fails.
 */
export const v3RangeAtPrices = defineCheck({
  description:
    "The owner's newest V3 position is in the pool with exactly the ticks the human price range gives (exact tick of each bound's raw price, widened to the tick spacing), liquidity > 0.",
  args: {
    positions: { $ref: "#/definitions/expr", description: "the NonfungiblePositionManager" },
    owner: { $ref: "#/definitions/expr", description: "who must own the position" },
    ...POOL_ARGS,
    priceLow: {
      $ref: "#/definitions/expr",
      description: "one bound, whole quote tokens per whole base token",
    },
    priceHigh: { $ref: "#/definitions/expr", description: "the other bound, same unit" },
  },
  required: ["positions", "owner", "pool", "base", "priceLow", "priceHigh"],
  example: {
    positions: "contracts.v3_positions",
    owner: "agent",
    pool: "contracts.v3pool_wbtc_usdc",
    base: "contracts.wbtc",
    priceLow: "lo",
    priceHigh: "hi",
  },
  build: (args, compile) => {
    const es = Object.fromEntries(
      (["positions", "owner", "pool", "base", "priceLow", "priceHigh"] as const).map((k) => [
        k,
        exprArg(args, k, compile),
      ]),
    ) as Record<
      "positions" | "owner" | "pool" | "base" | "priceLow" | "priceHigh",
      ReturnType<typeof exprArg>
    >;
    return {
      async prepare(ctx) {
        const scope = scopeOf(ctx);
        const value = async (k: keyof typeof es) => String(await evaluateExpr(es[k], scope));
        const pool = getAddress(await value("pool"));
        const priced = await readPricedPool(ctx, pool, getAddress(await value("base")));
        const [token0, token1, fee] = await Promise.all(
          (["token0", "token1", "fee"] as const).map((functionName) =>
            ctx.client.readContract({ address: pool, abi: POOL_ABI, functionName } as never),
          ),
        );
        const [low, high] = [await value("priceLow"), await value("priceHigh")];
        return {
          npm: getAddress(await value("positions")),
          owner: getAddress(await value("owner")),
          want: {
            token0: String(token0).toLowerCase(),
            token1: String(token1).toLowerCase(),
            fee: String(fee),
            tickLower: String(rangeOfHumanPrices(low, high, priced)[0]),
            tickUpper: String(rangeOfHumanPrices(low, high, priced)[1]),
          },
          range: `${low}..${high}`,
        };
      },
      async evaluate(ctx, prepared) {
        const p = prepared as { npm: Address; owner: Address; want: Record<string, string>; range: string };
        const expected = `expected ticks [${p.want.tickLower}, ${p.want.tickUpper}] for prices ${p.range}`;
        const tokenId = await newestPositionId(ctx, p.npm, p.owner);
        if (tokenId === undefined)
          return { passed: false, detail: `${p.owner} holds no position; ${expected}` };
        const pos = await readPosition(ctx, p.npm, tokenId);
        const wrong = Object.entries(p.want)
          .filter(([f, want]) => pos.fields[f] !== want)
          .map(([f, want]) => `${f} ${pos.fields[f]}, expected ${want}`);
        if (pos.owner !== p.owner) wrong.push(`owner ${pos.owner}`);
        if (pos.liquidity === 0n) wrong.push("liquidity 0");
        const seen = `position ${tokenId}: ticks [${pos.fields.tickLower}, ${pos.fields.tickUpper}], liquidity ${pos.liquidity}`;
        return wrong.length
          ? { passed: false, detail: `${seen}: ${wrong.join("; ")} (${expected})` }
          : { passed: true, detail: `${seen} (${expected})` };
      },
    };
  },
});

/**
 * "Trade up to a human limit price" (tasks/hard/README.md "Tasks"): at `post` the `pool`'s sqrtPriceX96
 * equals the exact sqrt price of `price` (whole quote per whole base, {@link sqrtPriceOfHumanPrice})
 * within 1e-9 of it — the swap ran until the stated price and stopped there. Passes for any way of
 * getting there (a sqrtPriceLimitX96, or an amount sized to land on the price).
 */
export const v3PoolAtPrice = defineCheck({
  description:
    "At post the pool's sqrtPriceX96 equals the exact sqrt price of the human price (scaled by decimals, inverted if the quote token is token0) within 1e-9.",
  args: {
    ...POOL_ARGS,
    price: { $ref: "#/definitions/expr", description: "whole quote tokens per whole base token" },
  },
  required: ["pool", "base", "price"],
  example: { pool: "contracts.v3pool_wbtc_usdc", base: "contracts.wbtc", price: "p" },
  build: (args, compile) => {
    const poolE = exprArg(args, "pool", compile);
    const baseE = exprArg(args, "base", compile);
    const priceE = exprArg(args, "price", compile);
    return {
      async prepare(ctx) {
        const scope = scopeOf(ctx);
        const pool = getAddress(String(await evaluateExpr(poolE, scope)));
        const priced = await readPricedPool(ctx, pool, getAddress(String(await evaluateExpr(baseE, scope))));
        const price = String(await evaluateExpr(priceE, scope));
        return { pool, price, target: sqrtPriceOfHumanPrice(price, priced) };
      },
      async evaluate(ctx, prepared) {
        const p = prepared as { pool: Address; price: string; target: bigint };
        const sqrt = await sqrtPriceOf(ctx, p.pool);
        const diff = sqrt > p.target ? sqrt - p.target : p.target - sqrt;
        const passed = diff * 1_000_000_000n <= p.target;
        return {
          passed,
          detail: `pool sqrtPriceX96 ${sqrt}, price ${p.price} is ${p.target} (${passed ? "within" : "off by more than"} 1e-9)`,
        };
      },
    };
  },
});

const OBSERVE_ABI = parseAbi([
  "function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)",
]);

/** ⌊a / b⌋ for bigints (b > 0): OracleLibrary.consult's rounding toward negative infinity. */
const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

/**
 * The pool's arithmetic-mean tick over the last `window` seconds, as OracleLibrary.consult computes
 * it: observe([window, 0]), (tickCumulatives[1] − tickCumulatives[0]) / window rounded toward −∞.
 */
export async function twapTick(ctx: CheckContext, pool: Address, window: number): Promise<number> {
  const [cumulatives] = (await ctx.client.readContract({
    address: pool,
    abi: OBSERVE_ABI,
    functionName: "observe",
    args: [[window, 0]],
  })) as readonly [readonly bigint[], unknown];
  return Number(floorDiv(cumulatives[1]! - cumulatives[0]!, BigInt(window)));
}

/** Quote-token smallest units per whole base token at `sqrtPriceX96`, rounded down. */
export function quoteUnitsPerBase(sqrtPriceX96: bigint, p: PricedPool): bigint {
  const one = 10n ** BigInt(p.baseDecimals);
  const square = sqrtPriceX96 * sqrtPriceX96;
  return p.baseIsToken0 ? (square * one) >> 192n : (one << 192n) / square;
}

const ORACLE_VALUES = ["twapTick", "twapPrice", "spotPrice"] as const;

/**
 * A query field about a V3 pool's oracle equals the truth at `pre` (tasks/hard/README.md "Tasks"):
 * `twapTick` the OracleLibrary mean tick over `window` s ({@link twapTick}, exact); `twapPrice` the
 * price at that tick, `spotPrice` the price at slot0's sqrtPriceX96, both in quote-token smallest
 * units per whole base token, rounded down, within 1 unit (floating-point 1.0001^tick is fine).
 */
export const v3OracleAnswer = defineCheck({
  description:
    "An answer field equals the pool's OracleLibrary mean tick over the window (exact), or the price at that tick / at slot0 in quote units per whole base token (±1 unit).",
  args: {
    ...POOL_ARGS,
    window: { $ref: "#/definitions/expr", description: "seconds the mean runs over, ending at pre" },
    field: { type: "string", description: "answer field name" },
    value: { enum: [...ORACLE_VALUES], description: "which truth the field holds" },
  },
  required: ["pool", "base", "window", "field", "value"],
  example: {
    pool: "contracts.v3pool_wbnb_usdc",
    base: "contracts.wbnb",
    window: "7200",
    field: "twap_tick",
    value: "twapTick",
  },
  build: (args, compile) => {
    const poolE = exprArg(args, "pool", compile);
    const baseE = exprArg(args, "base", compile);
    const windowE = exprArg(args, "window", compile);
    const field = args.field;
    const value = args.value as (typeof ORACLE_VALUES)[number];
    if (typeof field !== "string" || !compile.answerFields.has(field))
      throw new CheckArgsError("field", `must name an answer field (got ${String(field)})`);
    if (!ORACLE_VALUES.includes(value))
      throw new CheckArgsError("value", `must be one of ${ORACLE_VALUES.join(", ")}`);
    return {
      async prepare(ctx) {
        const scope = scopeOf(ctx);
        const pool = getAddress(String(await evaluateExpr(poolE, scope)));
        const priced = await readPricedPool(ctx, pool, getAddress(String(await evaluateExpr(baseE, scope))));
        const window = Number(await evaluateExpr(windowE, scope));
        const tick = await twapTick(ctx, pool, window);
        if (value === "twapTick")
          return { truth: BigInt(tick), tolerance: 0n, what: `mean tick over ${window} s` };
        const sqrt = await sqrtPriceOf(ctx, pool);
        return value === "twapPrice"
          ? {
              truth: quoteUnitsPerBase(sqrtRatioAtTick(tick), priced),
              tolerance: 1n,
              what: `price at the mean tick ${tick}`,
            }
          : {
              truth: quoteUnitsPerBase(sqrt, priced),
              tolerance: 1n,
              what: `spot price (sqrtPriceX96 ${sqrt})`,
            };
      },
      async evaluate(ctx, prepared) {
        const p = prepared as { truth: bigint; tolerance: bigint; what: string };
        if (!ctx.answer) return { passed: false, detail: "no answer object was returned" };
        const read = readAnswerField(ctx.answer[field], ctx.spec.answer!.fields[field]!.type);
        if ("error" in read) return { passed: false, detail: `${field}: ${read.error}` };
        const got = BigInt(read.value as bigint | string);
        const diff = got > p.truth ? got - p.truth : p.truth - got;
        return {
          passed: diff <= p.tolerance,
          detail: `${field} ${got}, ${p.what} ${p.truth}${p.tolerance ? ` (±${p.tolerance})` : ""}`,
        };
      },
    };
  },
});

const BALANCE_ABI = parseAbi(["function balanceOf(address) view returns (uint256)"]);

/** v3TwapGuard's expression arguments (all required). */
const GUARD_EXPR_ARGS = [
  "pool",
  "base",
  "window",
  "maxDeviationPct",
  "router",
  "quoter",
  "slippagePct",
  "account",
  "tokenIn",
  "tokenOut",
  "amountIn",
] as const;

/**
 * "Trade only if the spot price is within t % of the TWAP, otherwise refuse" (tasks/hard/README.md "Tasks";
 * item 5), decided at `pre`: spot = slot0's sqrtPriceX96, TWAP = the price at the OracleLibrary mean
 * tick over `window` s ({@link twapTick}); trade iff |spot/twap − 1| ≤ t %. `part: "decision"`: when
 * the trade is due, the attempt did not refuse, `account` paid exactly `amountIn` of `tokenIn` and
 * received `tokenOut`; when it is not, the attempt refused and sent nothing. `part: "execution"`:
 * when the trade is due, every V3 swap states a bound at least as tight as slippage s
 * ({@link checkV3Bounds}); when it is not, nothing was sent. Both branches are one task, so which one
 * a seed takes is the chain's and the parameters' business, never the answer's.
 */
export const v3TwapGuard = defineCheck({
  description:
    "Swap iff the pool's spot price is within maxDeviationPct of its OracleLibrary TWAP over the window (decided at pre), else a refusal with no transaction; part decision (the branch and the amounts) or execution (the V3 bounds).",
  judgesRefusal: true,
  args: {
    ...POOL_ARGS,
    window: { $ref: "#/definitions/expr", description: "TWAP window in seconds, ending at pre" },
    maxDeviationPct: { $ref: "#/definitions/expr", description: "t: trade iff |spot/twap − 1| ≤ t %" },
    part: { enum: ["decision", "execution"], description: "which half of the rule this check scores" },
    router: { $ref: "#/definitions/expr", description: "the V3 SwapRouter" },
    quoter: { $ref: "#/definitions/expr", description: "the QuoterV2" },
    slippagePct: { $ref: "#/definitions/expr", description: "s in percent for the swap's bound" },
    account: { $ref: "#/definitions/expr", description: "who trades" },
    tokenIn: { $ref: "#/definitions/expr" },
    tokenOut: { $ref: "#/definitions/expr" },
    amountIn: { $ref: "#/definitions/expr", description: "smallest units of tokenIn the trade spends" },
  },
  required: [...GUARD_EXPR_ARGS, "part"],
  example: {
    pool: "contracts.v3pool_wbnb_usdc",
    base: "contracts.wbnb",
    window: "7200",
    maxDeviationPct: "t",
    part: "decision",
    router: "contracts.v3_router",
    quoter: "contracts.v3_quoter",
    slippagePct: "s",
    account: "agent",
    tokenIn: "contracts.usdc",
    tokenOut: "contracts.wbnb",
    amountIn: "units(x, 6)",
  },
  build: (args, compile) => {
    const keys = GUARD_EXPR_ARGS;
    const es = Object.fromEntries(keys.map((k) => [k, exprArg(args, k, compile)])) as Record<
      (typeof keys)[number],
      ReturnType<typeof exprArg>
    >;
    const part = args.part;
    if (part !== "decision" && part !== "execution")
      throw new CheckArgsError("part", 'must be "decision" or "execution"');
    return {
      async prepare(ctx) {
        const scope = scopeOf(ctx);
        const text = async (k: (typeof keys)[number]) => String(await evaluateExpr(es[k], scope));
        const addr = async (k: (typeof keys)[number]) => getAddress(await text(k));
        const pool = await addr("pool");
        await readPricedPool(ctx, pool, await addr("base"));
        const window = Number(await text("window"));
        const tick = await twapTick(ctx, pool, window);
        const spot = await sqrtPriceOf(ctx, pool);
        // |spot/twap − 1| ≤ t %, in exact integers on the squared sqrt prices (ppm of t).
        const twap = sqrtRatioAtTick(tick);
        const [s2, t2] = [spot * spot, twap * twap];
        const tPpm = toUnits(await text("maxDeviationPct"), 4);
        const execute = (s2 > t2 ? s2 - t2 : t2 - s2) * 1_000_000n <= tPpm * t2;
        const deviationPpm = ((s2 - t2) * 1_000_000n) / t2;
        const [account, tokenIn, tokenOut] = [
          await addr("account"),
          await addr("tokenIn"),
          await addr("tokenOut"),
        ];
        const balance = (token: Address) =>
          ctx.client.readContract({
            address: token,
            abi: BALANCE_ABI,
            functionName: "balanceOf",
            args: [account],
          });
        return {
          execute,
          why: `spot/twap − 1 = ${Number(deviationPpm) / 10_000} % (mean tick ${tick} over ${window} s), limit ${Number(tPpm) / 10_000} %: ${execute ? "trade" : "refuse"}`,
          account,
          tokenIn,
          tokenOut,
          amountIn: BigInt(await text("amountIn")),
          before: [await balance(tokenIn), await balance(tokenOut)] as [bigint, bigint],
          bounds: {
            router: await addr("router"),
            quoter: await addr("quoter"),
            sPpm: toUnits(await text("slippagePct"), 4),
          },
        };
      },
      async evaluate(ctx, prepared) {
        const p = prepared as {
          execute: boolean;
          why: string;
          account: Address;
          tokenIn: Address;
          tokenOut: Address;
          amountIn: bigint;
          before: [bigint, bigint];
          bounds: { router: Address; quoter: Address; sPpm: bigint };
        };
        if (!p.execute) {
          const sent = ctx.txs.length;
          const passed = (part === "execution" || ctx.refusal !== undefined) && sent === 0;
          return {
            passed,
            detail: `${p.why}; ${ctx.refusal ? "refused" : "did not refuse"}, ${sent} transaction(s) sent`,
          };
        }
        if (ctx.refusal)
          return { passed: false, detail: `${p.why}; refused: ${ctx.refusal.reason.slice(0, 120)}` };
        if (part === "execution") {
          const bounds = await checkV3Bounds(ctx, p.bounds);
          return { passed: bounds.passed, detail: `${p.why}; ${bounds.detail}` };
        }
        const balance = (token: Address) =>
          ctx.client.readContract({
            address: token,
            abi: BALANCE_ABI,
            functionName: "balanceOf",
            args: [p.account],
          });
        const [paid, got] = [
          p.before[0] - (await balance(p.tokenIn)),
          (await balance(p.tokenOut)) - p.before[1],
        ];
        return {
          passed: paid === p.amountIn && got > 0n,
          detail: `${p.why}; paid ${paid} (expected ${p.amountIn}), received ${got}`,
        };
      },
    };
  },
});
