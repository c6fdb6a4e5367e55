import { type Address, getAddress, type PublicClient } from "viem";
import { toUnits } from "../../expr/decimal.ts";
import { evaluateExpr } from "../../expr/expr.ts";
import { BALANCE_OF_ABI, V2_ROUTER_VIEWS_ABI } from "../abi.ts";
import { exprArg, optionalExprArg } from "../args.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, type CheckContext, defineCheck } from "../types.ts";
import {
  argmaxConcave,
  assertModel,
  cyclePath,
  modelIn,
  modelOut,
  optimalSplit,
  type Venue,
} from "./bestExecutionMath.ts";
import { quote, v2VenueOf, venueOf } from "./bestExecutionVenues.ts";

/**
 * Best execution over Uniswap V3 pools (a search / optimisation task): the
 * checks compute the optimum themselves from the pre-state and compare what the attempt achieved
 * with it, within a tolerance the prompt states. The optimum comes from the pools' state (slot0 and
 * liquidity, i.e. the virtual reserves x = L/√P, y = L·√P of a full-range pool) by equalising the
 * marginal rates (water-filling), then every leg of that optimum is priced exactly by QuoterV2 at the
 * pre-state, so the figure compared with is an amount the chain really pays, never a float. A pool
 * whose quote disagrees with the constant-liquidity model (a concentrated position was added) makes
 * the check fail loudly rather than compare with a wrong optimum. A Uniswap V2 pair is the same
 * model on its real reserves (0.3 % fee), priced by the router's getAmountsOut / getAmountsIn.
 */

const PPM = 1_000_000n;
const pctToPpm = (pct: string) => toUnits(pct, 4);

async function addresses(ctx: CheckContext, exprs: Record<string, ReturnType<typeof exprArg>>) {
  const scope = scopeOf(ctx);
  const out: Record<string, Address> = {};
  for (const [k, e] of Object.entries(exprs)) out[k] = getAddress(String(await evaluateExpr(e, scope)));
  return out;
}

const balanceOf = (client: PublicClient, token: Address, account: Address) =>
  client.readContract({ address: token, abi: BALANCE_OF_ABI, functionName: "balanceOf", args: [account] });

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
            abi: V2_ROUTER_VIEWS_ABI,
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
