import { type Address, getAddress } from "viem";
import { evaluateExpr } from "../../expr/expr.ts";
import { V3_POOL_ABI } from "../abi.ts";
import { exprArg } from "../args.ts";
import { readAnswerField } from "../checks/answer.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, defineCheck } from "../types.ts";
import { quoteUnitsPerBase, rangeOfHumanPrices, sqrtPriceOfHumanPrice, sqrtRatioAtTick } from "./v3Math.ts";
import { POOL_ARGS, readPricedPool, sqrtPriceOf, twapTick } from "./v3PoolReads.ts";
import { newestPositionId, readPosition } from "./v3Positions.ts";

/**
 * "A position between human prices": the `owner`'s newest position of
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
            ctx.client.readContract({ address: pool, abi: V3_POOL_ABI, functionName } as never),
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
 * "Trade up to a human limit price": at `post` the `pool`'s sqrtPriceX96
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

const ORACLE_VALUES = ["twapTick", "twapPrice", "spotPrice"] as const;

/**
 * A query field about a V3 pool's oracle equals the truth at `pre`:
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
