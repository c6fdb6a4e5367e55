import { type Address, getAddress } from "viem";
import { toUnits } from "../../expr/decimal.ts";
import { evaluateExpr } from "../../expr/expr.ts";
import { BALANCE_OF_ABI } from "../abi.ts";
import { exprArg } from "../args.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, defineCheck } from "../types.ts";
import { sqrtRatioAtTick } from "../v3/v3Math.ts";
import { POOL_ARGS, readPricedPool, sqrtPriceOf, twapTick } from "../v3/v3PoolReads.ts";
import { checkV3Bounds } from "./v3Bounds.ts";

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
 * "Trade only if the spot price is within t % of the TWAP, otherwise refuse", decided at `pre`:
 * spot = slot0's sqrtPriceX96, TWAP = the price at the OracleLibrary mean tick over `window` s ({@link twapTick}); trade iff |spot/twap − 1| ≤ t %. `part: "decision"`: when
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
            abi: BALANCE_OF_ABI,
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
            abi: BALANCE_OF_ABI,
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
