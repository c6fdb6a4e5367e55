import {
  type AbiEvent,
  decodeEventLog,
  decodeFunctionData,
  getAddress,
  type Log,
  parseAbi,
  parseAbiItem,
  toEventSelector,
} from "viem";
import { toUnits } from "../../expr/decimal.ts";
import { asBigInt, type Expr, evaluateExpr, type Value } from "../../expr/expr.ts";
import { TRANSFER_EVENT, V2_MINT_EVENT, V2_PAIR_ABI } from "../abi.ts";
import { exprArg } from "../args.ts";
import { compareValues, describeComparison, parseOp } from "../compare.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, type CheckContext, defineCheck } from "../types.ts";
import { OP_ARG } from "./stateChecks.ts";

const toValue = (v: unknown): Value =>
  typeof v === "bigint" ? v : typeof v === "boolean" ? (v ? 1n : 0n) : String(v);

/**
 * An argument of the sent calldata, decoded with one of the listed function signatures, compared
 * with `expected` (used for safety checks such as a non-zero minimum output, never as an effect).
 * Args: `{ functions: ["function f(uint256 amountOutMin, ...)"], arg, op?, expected }`.
 */
export const calldataArg = defineCheck({
  description:
    "An argument of the calldata, decoded with one of `functions`, compares with `expected` (safety checks only, never effects).",
  args: {
    functions: {
      type: "array",
      minItems: 1,
      items: { type: "string" },
      description: "human-readable function signatures",
    },
    arg: { type: "string", description: "argument name" },
    op: OP_ARG,
    expected: { $ref: "#/definitions/expr", description: "the bound" },
  },
  required: ["functions", "arg", "expected"],
  example: {
    functions: [
      "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
    ],
    arg: "amountOutMin",
    op: "gt",
    expected: "0",
  },
  build: (args, compile) => {
    if (!Array.isArray(args.functions) || args.functions.length === 0)
      throw new CheckArgsError("functions", "must list human-readable function signatures");
    let abi: ReturnType<typeof parseAbi>;
    try {
      abi = parseAbi(args.functions as string[]);
    } catch (error) {
      throw new CheckArgsError("functions", (error as Error).message.split("\n")[0]!);
    }
    const arg = String(args.arg);
    for (const item of abi)
      if (item.type === "function" && !item.inputs.some((i) => i.name === arg))
        throw new CheckArgsError("arg", `function ${item.name} has no argument named '${arg}'`);
    const op = parseOp(args.op);
    const expected = exprArg(args, "expected", compile);
    return {
      prepare: async (ctx) => evaluateExpr(expected, scopeOf(ctx)),
      async evaluate(ctx, want) {
        if (!ctx.tx) return { passed: false, detail: "no transaction was sent" };
        try {
          const decoded = decodeFunctionData({ abi, data: ctx.tx.input });
          const item = abi.find((i) => i.type === "function" && i.name === decoded.functionName);
          const index = item && item.type === "function" ? item.inputs.findIndex((i) => i.name === arg) : -1;
          const actual = toValue((decoded.args as unknown[])[index]);
          return {
            passed: compareValues(actual, op, want as Value, undefined),
            detail: describeComparison(
              `${decoded.functionName}.${arg}`,
              actual,
              op,
              want as Value,
              undefined,
            ),
          };
        } catch {
          return { passed: false, detail: "calldata does not decode as any of the expected functions" };
        }
      },
    };
  },
});

function eventItem(signature: unknown): AbiEvent {
  try {
    const item = parseAbiItem(String(signature));
    if (item.type !== "event") throw new Error("not an event");
    return item;
  } catch (error) {
    throw new CheckArgsError(
      "event",
      `must be an event signature: ${(error as Error).message.split("\n")[0]}`,
    );
  }
}

/** Every log of the attempt's transactions (atomic: the one transaction; composite: all rounds). */
export function attemptLogs(ctx: CheckContext): Log[] {
  return ctx.txs.flatMap((t) => t.receipt.logs);
}

/** Decoded logs of `event` emitted by `address` in the transaction's receipt. */
export function findEvents(logs: readonly Log[], address: string, event: AbiEvent) {
  const topic = toEventSelector(event);
  return logs
    .filter((l) => l.address.toLowerCase() === address.toLowerCase() && l.topics[0] === topic)
    .map(
      (l) =>
        decodeEventLog({ abi: [event], data: l.data, topics: l.topics }).args as unknown as Record<
          string,
          unknown
        >,
    );
}

/**
 * The transaction emitted `event` from `address` with every argument in `where` equal to its
 * expression (addresses case-insensitive, bytes and strings exact). Args: `{ address, event, where? }`.
 */
export const eventEmitted = defineCheck({
  description: "`address` emitted `event` with every argument in `where` equal to its expression.",
  args: {
    address: { $ref: "#/definitions/expr", description: "emitter" },
    event: {
      type: "string",
      description:
        'event signature, e.g. "event Transfer(address indexed from, address indexed to, uint256 value)"',
    },
    where: {
      type: "object",
      additionalProperties: { $ref: "#/definitions/expr" },
      description: "argument name → expected value",
    },
  },
  required: ["address", "event"],
  example: {
    address: "contracts.wbnb",
    event: "event Deposit(address indexed dst, uint256 wad)",
    where: { dst: "agent", wad: "wei(x)" },
  },
  build: (args, compile) => {
    const address = exprArg(args, "address", compile);
    const event = eventItem(args.event);
    const where = (args.where ?? {}) as Record<string, unknown>;
    const matchers: [string, Expr][] = Object.keys(where).map((name) => {
      if (!event.inputs.some((i) => i.name === name))
        throw new CheckArgsError(`where.${name}`, `event ${event.name} has no argument '${name}'`);
      return [name, exprArg(where, name, compile)];
    });
    return {
      async prepare(ctx) {
        const scope = scopeOf(ctx);
        const values: Record<string, Value> = {};
        for (const [name, expr] of matchers) values[name] = await evaluateExpr(expr, scope);
        return { address: String(await evaluateExpr(address, scope)), values };
      },
      async evaluate(ctx, prepared) {
        if (ctx.txs.length === 0) return { passed: false, detail: "no transaction was sent" };
        const { address: at, values } = prepared as { address: string; values: Record<string, Value> };
        const found = findEvents(attemptLogs(ctx), at, event);
        const hit = found.some((logArgs) =>
          Object.entries(values).every(([k, v]) => compareValues(toValue(logArgs[k]), "eq", v, undefined)),
        );
        const want = Object.entries(values)
          .map(([k, v]) => `${k}=${v}`)
          .join(", ");
        return {
          passed: hit,
          detail: `${event.name}(${want}) from ${getAddress(at)}: ${hit ? "emitted" : `not found among ${found.length} ${event.name} log(s)`}`,
        };
      },
    };
  },
});

const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * AddLiq(pair, a, b, s): the pair emitted `Mint` in the transaction with used
 * amounts u_a ≤ maxA and u_b ≤ maxB (wei), max(u_a/maxA, u_b/maxB) ≥ 1 − s/100 (s a percentage,
 * integer or decimal with up to 4 places); the agent's balances
 * fell by exactly u_a and u_b (native side net of fee when `nativeSide` names it); the agent's LP
 * balance rose by the LP minted to it (> 0).
 * Args: `{ pair, tokenA, maxA, tokenB, maxB, slippagePct, nativeSide?: "A" | "B" }`.
 */
export const addLiquidity = defineCheck({
  description:
    "AddLiq: the pair minted LP to the agent within slippage and the agent paid exactly the amounts used.",
  args: {
    pair: { $ref: "#/definitions/expr", description: "pair address" },
    tokenA: { $ref: "#/definitions/expr", description: "token A" },
    maxA: { $ref: "#/definitions/expr", description: "max A in wei" },
    tokenB: { $ref: "#/definitions/expr", description: "token B" },
    maxB: { $ref: "#/definitions/expr", description: "max B in wei" },
    slippagePct: { $ref: "#/definitions/expr", description: "allowed slippage, percent" },
    nativeSide: { enum: ["A", "B"], description: "the side paid in BNB" },
    exactBalances: { type: "boolean", description: "false when other steps move the same tokens" },
  },
  required: ["pair", "tokenA", "maxA", "tokenB", "maxB", "slippagePct"],
  example: {
    pair: "contracts.pair_usdt_busd",
    tokenA: "contracts.usdt",
    maxA: "wei(a)",
    tokenB: "contracts.busd",
    maxB: "wei(b)",
    slippagePct: "1",
  },
  build: (args, compile) => {
    // Composite workflows move the same tokens in other steps (wrap, swap): there the task's own
    // checks bound the balances and `exactBalances: false` drops this part.
    const exactBalances = args.exactBalances !== false;
    const e = Object.fromEntries(
      ["pair", "tokenA", "maxA", "tokenB", "maxB", "slippagePct"].map((f) => [f, exprArg(args, f, compile)]),
    );
    const nativeSide = args.nativeSide;
    if (nativeSide !== undefined && nativeSide !== "A" && nativeSide !== "B")
      throw new CheckArgsError("nativeSide", 'must be "A" or "B"');
    return {
      async prepare(ctx) {
        const scope = scopeOf(ctx);
        const v: Record<string, Value> = {};
        for (const [k, expr] of Object.entries(e)) v[k] = await evaluateExpr(expr, scope);
        const agent = ctx.world.agent.address;
        const read = async (token: Value, side: "A" | "B") =>
          nativeSide === side
            ? ctx.client.getBalance({ address: agent })
            : asBigInt(await scope.fn("tokenBalance", [token, agent]), "balance");
        return {
          v,
          balA: await read(v.tokenA!, "A"),
          balB: await read(v.tokenB!, "B"),
          lp: await ctx.client.readContract({
            address: getAddress(String(v.pair)),
            abi: V2_PAIR_ABI,
            functionName: "balanceOf",
            args: [agent],
          }),
        };
      },
      async evaluate(ctx, prepared) {
        if (ctx.txs.length === 0) return { passed: false, detail: "no transaction was sent" };
        const p = prepared as { v: Record<string, Value>; balA: bigint; balB: bigint; lp: bigint };
        const pair = getAddress(String(p.v.pair));
        const agent = ctx.world.agent.address;
        const mints = findEvents(attemptLogs(ctx), pair, V2_MINT_EVENT);
        if (mints.length !== 1)
          return { passed: false, detail: `expected one Mint from the pair ${pair}, found ${mints.length}` };
        const token0 = await ctx.client.readContract({
          address: pair,
          abi: V2_PAIR_ABI,
          functionName: "token0",
        });
        const aIs0 = token0.toLowerCase() === String(p.v.tokenA).toLowerCase();
        const uA = (aIs0 ? mints[0]!.amount0 : mints[0]!.amount1) as bigint;
        const uB = (aIs0 ? mints[0]!.amount1 : mints[0]!.amount0) as bigint;
        const [maxA, maxB] = [asBigInt(p.v.maxA!, "maxA"), asBigInt(p.v.maxB!, "maxB")];
        // s may be a sampled decimal percentage such as "3.5" (a task may sample s from U[3,10]): s % in ppm.
        const sPpm = toUnits(String(p.v.slippagePct), 4);
        const problems: string[] = [];
        if (uA > maxA) problems.push(`used A ${uA} > ${maxA}`);
        if (uB > maxB) problems.push(`used B ${uB} > ${maxB}`);
        const fill = (u: bigint, max: bigint) => (max === 0n ? 0n : (u * 1_000_000n) / max);
        const best = fill(uA, maxA) > fill(uB, maxB) ? fill(uA, maxA) : fill(uB, maxB);
        if (best < 1_000_000n - sPpm)
          problems.push(`fill ${Number(best) / 10_000}% < ${Number(1_000_000n - sPpm) / 10_000}%`);
        const scope = scopeOf(ctx);
        const now = async (token: Value, side: "A" | "B") =>
          nativeSide === side
            ? (await ctx.client.getBalance({ address: agent })) + ctx.feesPaid
            : asBigInt(await scope.fn("tokenBalance", [token, agent]), "balance");
        const dA = p.balA - (await now(p.v.tokenA!, "A"));
        const dB = p.balB - (await now(p.v.tokenB!, "B"));
        if (exactBalances && dA !== uA) problems.push(`agent paid A ${dA}, pair used ${uA}`);
        if (exactBalances && dB !== uB) problems.push(`agent paid B ${dB}, pair used ${uB}`);
        const minted = findEvents(attemptLogs(ctx), pair, TRANSFER_EVENT)
          .filter(
            (t) =>
              String(t.from).toLowerCase() === ZERO && String(t.to).toLowerCase() === agent.toLowerCase(),
          )
          .reduce((sum, t) => sum + (t.value as bigint), 0n);
        const lpNow = await ctx.client.readContract({
          address: pair,
          abi: V2_PAIR_ABI,
          functionName: "balanceOf",
          args: [agent],
        });
        if (minted <= 0n) problems.push("no LP minted to the agent");
        if (exactBalances && lpNow - p.lp !== minted)
          problems.push(`agent LP rose by ${lpNow - p.lp}, minted to it ${minted}`);
        return problems.length === 0
          ? {
              passed: true,
              detail: `Mint used ${uA} / ${maxA} and ${uB} / ${maxB}; ${minted} LP to the agent`,
            }
          : { passed: false, detail: problems.join("; ") };
      },
    };
  },
});
