import {
  type Address,
  decodeFunctionData,
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  type Hex,
} from "viem";
import { toUnits } from "../../expr/decimal.ts";
import { asBigInt, evaluateExpr } from "../../expr/expr.ts";
import { NPM_LIQUIDITY_CALLS_ABI, NPM_POSITIONS_ABI, QUOTER_V2_ABI, V3_ROUTER_CALLS_ABI } from "../abi.ts";
import { exprArg, optionalExprArg } from "../args.ts";
import { callFrames } from "../checks/traces.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, type CheckContext, defineCheck, type SentTransaction } from "../types.ts";
import type { Bound } from "./priceBounds.ts";

const PPM = 1_000_000n;
/** The single rounding tolerance of every price bound (tasks/README.md): 0.01 %. */
const TOLERANCE_PPM = 100n;
const floorBound = (value: bigint, sPpm: bigint) =>
  (((value * (PPM - sPpm)) / PPM) * (PPM - TOLERANCE_PPM)) / PPM;
const ceilBound = (value: bigint, sPpm: bigint) =>
  (((value * (PPM + sPpm)) / PPM) * (PPM + TOLERANCE_PPM)) / PPM + 1n;

/**
 * One swap or liquidity call of the attempt to the V3 router or position manager, decoded: at any
 * depth (a multicall's inner calls, a batch contract's, a multicall inside a multicall), with the
 * msg.sender and msg.value it ran with.
 */
export type V3Call = {
  tx: SentTransaction;
  kind: "router" | "positions";
  fn: string;
  params: any;
  data: Hex;
  to: Address;
  sender: Address;
  value: bigint;
};

/** The attempt's successful V3 calls to `router` and `positions`, every batch's inner calls apart. */
export async function decodeV3Calls(
  ctx: CheckContext,
  router: Address,
  positions: Address | undefined,
): Promise<V3Call[]> {
  const calls: V3Call[] = [];
  for (const tx of ctx.txs) {
    if (tx.receipt.status !== "success") continue;
    for (const frame of await callFrames(ctx, tx)) {
      const to = frame.to.toLowerCase();
      const kind =
        to === router.toLowerCase() ? "router" : to === positions?.toLowerCase() ? "positions" : null;
      if (!kind || frame.type === "STATICCALL") continue;
      let decoded: { functionName: string; args?: readonly unknown[] };
      try {
        decoded = decodeFunctionData({
          abi: kind === "router" ? V3_ROUTER_CALLS_ABI : NPM_LIQUIDITY_CALLS_ABI,
          data: frame.input,
        }) as never;
      } catch {
        continue; // refundETH, collect, unwrapWETH9, …: nothing to bound
      }
      // A multicall's inner calls are frames of their own (delegatecalls to itself).
      if (decoded.functionName === "multicall") continue;
      calls.push({
        tx,
        kind,
        fn: decoded.functionName,
        params: decoded.args![0],
        data: frame.input,
        to: frame.to,
        sender: frame.sender,
        value: frame.value,
      });
    }
  }
  return calls;
}

/** The bounds one call states and what the rules require of them, read at the block before its own. */
export async function v3BoundsOf(
  ctx: CheckContext,
  quoter: Address,
  call: V3Call,
  sPpm: bigint,
): Promise<Bound[]> {
  const blockNumber = call.tx.receipt.blockNumber - 1n;
  const p = call.params;
  const quote = async (functionName: string, args: readonly unknown[]) => {
    const { data } = await ctx.client.call({
      to: quoter,
      data: encodeFunctionData({ abi: QUOTER_V2_ABI, functionName, args } as never),
      blockNumber,
    });
    return (decodeFunctionResult({ abi: QUOTER_V2_ABI, functionName, data: data! } as never) as bigint[])[0]!;
  };
  switch (call.fn) {
    case "exactInputSingle":
    case "exactInput": {
      const q =
        call.fn === "exactInput"
          ? await quote("quoteExactInput", [p.path, p.amountIn])
          : await quote("quoteExactInputSingle", [
              {
                tokenIn: p.tokenIn,
                tokenOut: p.tokenOut,
                amountIn: p.amountIn,
                fee: p.fee,
                sqrtPriceLimitX96: p.sqrtPriceLimitX96,
              },
            ]);
      return [
        {
          what: `${call.fn} amountOutMinimum`,
          actual: p.amountOutMinimum,
          op: "gte",
          required: floorBound(q, sPpm),
        },
        { what: `${call.fn} amountOutMinimum`, actual: p.amountOutMinimum, op: "gte", required: 1n },
      ];
    }
    case "exactOutputSingle":
    case "exactOutput": {
      const q =
        call.fn === "exactOutput"
          ? await quote("quoteExactOutput", [p.path, p.amountOut])
          : await quote("quoteExactOutputSingle", [
              {
                tokenIn: p.tokenIn,
                tokenOut: p.tokenOut,
                amount: p.amountOut,
                fee: p.fee,
                sqrtPriceLimitX96: p.sqrtPriceLimitX96,
              },
            ]);
      return [
        {
          what: `${call.fn} amountInMaximum`,
          actual: p.amountInMaximum,
          op: "lte",
          required: ceilBound(q, sPpm),
        },
      ];
    }
    default: {
      // mint / increaseLiquidity / decreaseLiquidity: the same call with its minimums zeroed, run by
      // the same sender with the same value at the block before, says what the pool would move.
      const data = encodeFunctionData({
        abi: NPM_LIQUIDITY_CALLS_ABI,
        functionName: call.fn,
        args: [{ ...p, amount0Min: 0n, amount1Min: 0n }],
      } as never);
      const { data: out } = await ctx.client.call({
        account: call.sender,
        to: call.to,
        data,
        value: call.value,
        blockNumber,
      });
      const result = decodeFunctionResult({
        abi: NPM_LIQUIDITY_CALLS_ABI,
        functionName: call.fn,
        data: out!,
      } as never) as bigint[];
      const [amount0, amount1] = result.slice(-2) as [bigint, bigint];
      return [
        {
          what: `${call.fn} amount0Min`,
          actual: p.amount0Min,
          op: "gte",
          required: floorBound(amount0, sPpm),
        },
        {
          what: `${call.fn} amount1Min`,
          actual: p.amount1Min,
          op: "gte",
          required: floorBound(amount1, sPpm),
        },
      ];
    }
  }
}

/**
 * The evaluation of {@link v3PriceBounds}, for checks that bound V3 calls as one of their parts
 * (e.g. a swap that must happen only under a condition): passes iff the attempt made at least one
 * successful V3 call and every one states a bound at least as tight as the rules (`sPpm` = s in ppm).
 */
export async function checkV3Bounds(
  ctx: CheckContext,
  p: {
    router: Address;
    quoter: Address;
    positions?: Address | undefined;
    sPpm: bigint;
    /** The amount each token must be offered (amountNDesired) in every mint or increase, in full. */
    desired?: { token: string; amount: bigint }[] | undefined;
  },
): Promise<{ passed: boolean; detail: string }> {
  const calls = await decodeV3Calls(ctx, p.router, p.positions);
  if (calls.length === 0) return { passed: false, detail: "no successful V3 swap or liquidity call" };
  const problems: string[] = [];
  const seen: string[] = [];
  for (const call of calls) {
    if (p.desired?.length && (call.fn === "mint" || call.fn === "increaseLiquidity"))
      problems.push(...(await offerShortfalls(ctx, call, p.desired)));
    let bounds: Bound[];
    try {
      bounds = await v3BoundsOf(ctx, p.quoter, call, p.sPpm);
    } catch (error) {
      problems.push(`${call.fn}: no quote at the block before (${(error as Error).message.split("\n")[0]})`);
      continue;
    }
    for (const b of bounds) {
      const ok = b.op === "gte" ? b.actual >= b.required : b.actual <= b.required;
      seen.push(`${b.what} ${b.actual} ${b.op === "gte" ? "≥" : "≤"} ${b.required}`);
      if (!ok) problems.push(`${b.what} ${b.actual} ${b.op === "gte" ? "<" : ">"} ${b.required}`);
    }
  }
  const sPct = Number(p.sPpm) / 10_000;
  return problems.length
    ? { passed: false, detail: `s = ${sPct} %: ${problems.join("; ")}` }
    : { passed: true, detail: `s = ${sPct} %: ${seen.join("; ")}` };
}

/** A mint's or increase's offered amounts (amount0Desired, amount1Desired) that differ from the request's. */
async function offerShortfalls(
  ctx: CheckContext,
  call: V3Call,
  desired: { token: string; amount: bigint }[],
): Promise<string[]> {
  let tokens: [string, string];
  if (call.fn === "mint") tokens = [String(call.params.token0), String(call.params.token1)];
  else {
    const position = (await ctx.client.readContract({
      address: call.to,
      abi: NPM_POSITIONS_ABI,
      functionName: "positions",
      args: [call.params.tokenId as bigint],
      blockNumber: call.tx.receipt.blockNumber - 1n,
    })) as readonly unknown[];
    tokens = [String(position[2]), String(position[3])];
  }
  const offered = [call.params.amount0Desired as bigint, call.params.amount1Desired as bigint];
  const out: string[] = [];
  for (const [i, token] of tokens.entries()) {
    const want = desired.find((d) => d.token === token.toLowerCase());
    if (want && offered[i] !== want.amount)
      out.push(`${call.fn} offers ${offered[i]} of ${token}, requested ${want.amount}`);
  }
  return out;
}

/**
 * V3 price protection (the V3 counterpart of `priceBounds`): every successful swap the
 * attempt sent to the V3 `router` (directly or inside `multicall`) states a bound at least as tight
 * as the prompt's rule, against QuoterV2's quote at the block before it: exact-in amountOutMinimum ≥
 * quote·(1 − s) and > 0, exact-out amountInMaximum ≤ quote·(1 + s); and every mint,
 * increaseLiquidity or decreaseLiquidity sent to `positions` sets amount0Min/amount1Min ≥ what the
 * same call with zero minimums would move at that block ·(1 − s). One rounding tolerance (0.01 %).
 * At least one such call must have been made.
 */
export const v3PriceBounds = defineCheck({
  description:
    "Every V3 swap (router) and liquidity call (positions) of the attempt states a bound at least as tight as the prompt's rules (s = `slippagePct`, default 1), against QuoterV2 / a zero-minimum simulation at the block before it.",
  args: {
    router: { $ref: "#/definitions/expr", description: "the V3 SwapRouter address" },
    quoter: { $ref: "#/definitions/expr", description: "the QuoterV2 address" },
    positions: {
      $ref: "#/definitions/expr",
      description:
        "the NonfungiblePositionManager address (its mint/increase/decrease calls are bounded too)",
    },
    slippagePct: {
      $ref: "#/definitions/expr",
      description: "s in percent (default 1, the benchmark's default)",
    },
    desired: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        properties: { token: { $ref: "#/definitions/expr" }, amount: { $ref: "#/definitions/expr" } },
        required: ["token", "amount"],
        additionalProperties: false,
      },
      description:
        "mint / increaseLiquidity: the amount each token must be offered (amount0Desired / amount1Desired) in full",
    },
  },
  required: ["router", "quoter"],
  example: { router: "contracts.v3_router", quoter: "contracts.v3_quoter", slippagePct: "0.5" },
  build: (args, compile) => {
    const router = exprArg(args, "router", compile);
    const quoter = exprArg(args, "quoter", compile);
    const positions = optionalExprArg(args, "positions", compile);
    const slippage = optionalExprArg(args, "slippagePct", compile);
    if (args.desired !== undefined && !Array.isArray(args.desired))
      throw new CheckArgsError("desired", "must be a list of { token, amount }");
    const desired = ((args.desired ?? []) as Record<string, unknown>[]).map((d, i) => {
      try {
        return { token: exprArg(d, "token", compile), amount: exprArg(d, "amount", compile) };
      } catch (error) {
        throw new CheckArgsError(
          `desired[${i}].${(error as CheckArgsError).field}`,
          (error as Error).message,
        );
      }
    });
    return {
      async prepare(ctx) {
        const scope = scopeOf(ctx);
        const address = async (e: typeof router) => getAddress(String(await evaluateExpr(e, scope)));
        return {
          router: await address(router),
          quoter: await address(quoter),
          positions: positions ? await address(positions) : undefined,
          sPpm: slippage ? toUnits(String(await evaluateExpr(slippage, scope)), 4) : 10_000n,
          desired: await Promise.all(
            desired.map(async (d) => ({
              token: String(await evaluateExpr(d.token, scope)).toLowerCase(),
              amount: asBigInt(await evaluateExpr(d.amount, scope), "desired amount"),
            })),
          ),
        };
      },
      async evaluate(ctx, prepared) {
        const p = prepared as Parameters<typeof checkV3Bounds>[1];
        return checkV3Bounds(ctx, p);
      },
    };
  },
});
