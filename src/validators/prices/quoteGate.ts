import { getAddress } from "viem";
import { asBigInt, evaluateExpr } from "../../expr/expr.ts";
import { QUOTER_V2_ABI } from "../abi.ts";
import { allowOnly, exprArg } from "../args.ts";
import { tokenBalanceDelta } from "../checks/stateChecks.ts";
import { txSucceeded, txTo } from "../checks/txChecks.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, type CheckDefinition, defineCheck } from "../types.ts";
import { v3BestQuote } from "../v3/v3Positions.ts";
import { v3CycleBest, v3SplitBest } from "./bestExecution.ts";
import { v3PriceBounds } from "./v3Bounds.ts";

/** The checks `v3QuoteGate` may run on its execute branch (what a V3 trade's effects need). */
const BRANCH_CHECKS: Record<string, CheckDefinition> = {
  txSucceeded,
  txTo,
  tokenBalanceDelta,
  v3PriceBounds,
  v3BestQuote,
  v3SplitBest,
  v3CycleBest,
};

type Gate = { execute: boolean; best: bigint; bestFee: number; threshold: bigint; branch: unknown[] };

/**
 * `v3QuoteGate` (conditional judgement decided at run time): the user
 * asks for a V3 sale of `amountIn` only if the pool that pays most for it pays at least `threshold`
 * (a price rule stated in the prompt, e.g. "no more than 1 % below the oracle"), and a refusal
 * otherwise. At the pre-state the check quotes every fee tier with QuoterV2 and decides the branch:
 * execute — no refusal and every `execute` sub-check holds; refuse — the attempt refused and sent
 * nothing. It judges refusals itself (`judgesRefusal`), so a refusal is scored by it, not by a
 * separate `refused` check.
 */
export const v3QuoteGate = defineCheck({
  description:
    "If the best QuoterV2 quote (pre) of amountIn over the fee tiers is ≥ threshold, every `execute` sub-check holds and nothing was refused; otherwise the attempt refused and sent no transaction.",
  judgesRefusal: true,
  args: {
    quoter: { $ref: "#/definitions/expr", description: "the QuoterV2" },
    tokenIn: { $ref: "#/definitions/expr", description: "token sold" },
    tokenOut: { $ref: "#/definitions/expr", description: "token bought" },
    fees: { type: "array", minItems: 1, items: { type: "integer" }, description: "the pools' fee tiers" },
    amountIn: { $ref: "#/definitions/expr", description: "raw units of tokenIn" },
    threshold: {
      $ref: "#/definitions/expr",
      description: "the least tokenOut (raw units) the best pool must pay for the trade to go ahead",
    },
    execute: {
      type: "array",
      minItems: 1,
      items: { $ref: "#/definitions/check" },
      description: `sub-checks of the execute branch ({ check, args }; one of ${Object.keys(BRANCH_CHECKS).join(", ")})`,
    },
  },
  required: ["quoter", "tokenIn", "tokenOut", "fees", "amountIn", "threshold", "execute"],
  example: {
    quoter: "contracts.v3_quoter",
    tokenIn: "contracts.wbtc",
    tokenOut: "contracts.usdc",
    fees: [500, 3000, 10000],
    amountIn: "units(x, 8)",
    threshold:
      "units(x, 8) * call(contracts.wbtc_usd_feed, 'latestAnswer()(int256)') * 99 / 100 / 10000000000",
    execute: [{ check: "txSucceeded" }],
  },
  build: (args, compile) => {
    const fees = args.fees;
    if (!Array.isArray(fees) || fees.length === 0 || !fees.every((f) => Number.isInteger(f) && f > 0))
      throw new CheckArgsError("fees", "must be a non-empty list of fee tiers");
    if (!Array.isArray(args.execute) || args.execute.length === 0)
      throw new CheckArgsError("execute", "must be a non-empty list of checks");
    const branch = args.execute.map((sub, i) => {
      const { check, args: subArgs = {} } = sub as { check: string; args?: Record<string, unknown> };
      const def = BRANCH_CHECKS[check];
      if (!def)
        throw new CheckArgsError(
          `execute[${i}].check`,
          `must be one of ${Object.keys(BRANCH_CHECKS).join(", ")}`,
        );
      try {
        allowOnly(subArgs, Object.keys(def.args));
        return def.build(subArgs, compile);
      } catch (error) {
        if (error instanceof CheckArgsError)
          throw new CheckArgsError(`execute[${i}].${error.field}`, error.message);
        throw error;
      }
    });
    const es = {
      quoter: exprArg(args, "quoter", compile),
      tokenIn: exprArg(args, "tokenIn", compile),
      tokenOut: exprArg(args, "tokenOut", compile),
      amountIn: exprArg(args, "amountIn", compile),
      threshold: exprArg(args, "threshold", compile),
    };
    return {
      async prepare(ctx): Promise<Gate> {
        const scope = scopeOf(ctx);
        const [quoter, tokenIn, tokenOut] = await Promise.all(
          [es.quoter, es.tokenIn, es.tokenOut].map(async (e) =>
            getAddress(String(await evaluateExpr(e, scope))),
          ),
        );
        const amountIn = asBigInt(await evaluateExpr(es.amountIn, scope), "amountIn");
        const threshold = asBigInt(await evaluateExpr(es.threshold, scope), "threshold");
        let [best, bestFee] = [-1n, 0];
        for (const fee of fees as number[]) {
          const out = await ctx.client
            .simulateContract({
              address: quoter!,
              abi: QUOTER_V2_ABI,
              functionName: "quoteExactInputSingle",
              args: [{ tokenIn: tokenIn!, tokenOut: tokenOut!, amountIn, fee, sqrtPriceLimitX96: 0n }],
            })
            .then((r) => r.result[0])
            .catch(() => -1n);
          if (out > best) [best, bestFee] = [out, fee];
        }
        return {
          execute: best >= threshold,
          best,
          bestFee,
          threshold,
          branch: await Promise.all(branch.map((b) => b.prepare?.(ctx))),
        };
      },
      async evaluate(ctx, prepared) {
        const g = prepared as Gate;
        const why = `best pool (fee ${g.bestFee}) pays ${g.best} ${g.execute ? "≥" : "<"} ${g.threshold}`;
        if (!g.execute)
          return ctx.refusal && ctx.txs.length === 0
            ? { passed: true, detail: `${why}: refused, nothing sent` }
            : {
                passed: false,
                detail: `${why}: must refuse, but ${ctx.refusal ? "a transaction was sent" : `executed (${ctx.txs.length} transaction(s))`}`,
              };
        if (ctx.refusal)
          return {
            passed: false,
            detail: `${why}: must execute, but refused (${ctx.refusal.reason.slice(0, 120)})`,
          };
        const results = [];
        for (const [i, b] of branch.entries()) results.push(await b.evaluate(ctx, g.branch[i]));
        return {
          passed: results.every((r) => r.passed),
          detail: `${why}: execute; ${results.map((r) => `${r.passed ? "✓" : "✗"} ${r.detail}`).join("; ")}`,
        };
      },
    };
  },
});
