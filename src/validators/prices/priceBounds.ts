import { type Address, decodeFunctionData, getAddress } from "viem";
import { toUnits } from "../../expr/decimal.ts";
import { asBigInt, evaluateExpr } from "../../expr/expr.ts";
import { V2_NAMED_VIEWS_ABI, V2_ROUTER_CALLS_ABI } from "../abi.ts";
import { exprArg, optionalExprArg } from "../args.ts";
import { callFrames } from "../checks/traces.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, type CheckContext, defineCheck, type SentTransaction } from "../types.ts";

const PPM = 1_000_000n;
/** The one rounding tolerance of a bound (tasks/README.md "Rounding tolerance"): 0.01 % = 100 ppm. */
const TOLERANCE_PPM = 100n;

/** One minimum/maximum the calldata states, and the bound the rules require of it. */
export type Bound = { what: string; actual: bigint; op: "gte" | "lte"; required: bigint };

/**
 * A router call of the attempt, decoded, with the state it ran against (the block before its own):
 * at any depth (inside Multicall3, a batch or another contract), with the msg.value it received.
 */
export type RouterCall = {
  tx: SentTransaction;
  fn: string;
  args: readonly unknown[];
  before: bigint;
  /** Wei the router received with this call. */
  value: bigint;
};

/** Every successful swap or liquidity call to `router` at any depth of the attempt's transactions. */
export async function decodeRouterCalls(ctx: CheckContext, router: Address): Promise<RouterCall[]> {
  const calls: RouterCall[] = [];
  const target = router.toLowerCase();
  for (const tx of ctx.txs) {
    if (tx.receipt.status !== "success") continue;
    for (const frame of await callFrames(ctx, tx)) {
      if (frame.to.toLowerCase() !== target || frame.type === "STATICCALL") continue;
      try {
        const decoded = decodeFunctionData({ abi: V2_ROUTER_CALLS_ABI, data: frame.input });
        calls.push({
          tx,
          fn: decoded.functionName,
          args: decoded.args ?? [],
          before: tx.receipt.blockNumber - 1n,
          value: frame.value,
        });
      } catch {
        // not a swap or liquidity function (e.g. a read-only helper): nothing to bound
      }
    }
  }
  return calls;
}

const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/**
 * What a fee-on-transfer swap delivered: the `token` its Transfer logs moved to `recipient` (the
 * router itself for the ETH variants, which unwraps). A transfer fee makes getAmountsOut overstate
 * the output, and the router's SupportingFeeOnTransferTokens functions check the minimum against
 * what arrives; each transaction runs alone in its block on the state just before, so what arrived
 * is exactly the no-slippage output the minimum is measured against.
 */
function arrived(call: RouterCall, token: Address, recipient: Address): bigint {
  const to = recipient.toLowerCase().slice(2);
  return call.tx.receipt.logs
    .filter(
      (l) =>
        l.address.toLowerCase() === token.toLowerCase() &&
        l.topics[0] === TRANSFER_TOPIC &&
        l.topics[2]?.toLowerCase().endsWith(to),
    )
    .reduce((sum, l) => sum + BigInt(l.data), 0n);
}

/** `value` lowered by s (ppm) then by the rounding tolerance: the least a minimum may be. */
const floorBound = (value: bigint, sPpm: bigint) =>
  (((value * (PPM - sPpm)) / PPM) * (PPM - TOLERANCE_PPM)) / PPM;
/** `value` raised by s then by the rounding tolerance (+1 wei): the most a maximum may be. */
const ceilBound = (value: bigint, sPpm: bigint) =>
  (((value * (PPM + sPpm)) / PPM) * (PPM + TOLERANCE_PPM)) / PPM + 1n;

/**
 * What a V2 pair takes of an add-liquidity offer at its reserves (Router02's `_addLiquidity`): both
 * desired amounts when the pair is new or empty, else one in full and the other at the reserve ratio.
 */
async function amountsTaken(
  read: <T>(address: Address, functionName: string, args?: readonly unknown[]) => Promise<T>,
  router: Address,
  tokenA: Address,
  tokenB: Address,
  desiredA: bigint,
  desiredB: bigint,
): Promise<[bigint, bigint]> {
  const factory = await read<Address>(router, "factory");
  const pair = await read<Address>(factory, "getPair", [tokenA, tokenB]);
  if (BigInt(pair) === 0n) return [desiredA, desiredB];
  const [r0, r1] = await read<readonly bigint[]>(pair, "getReserves");
  const [reserveA, reserveB] = BigInt(tokenA) < BigInt(tokenB) ? [r0!, r1!] : [r1!, r0!];
  if (reserveA === 0n || reserveB === 0n) return [desiredA, desiredB];
  const optimalB = (desiredA * reserveB) / reserveA;
  if (optimalB <= desiredB) return [desiredA, optimalB];
  return [(desiredB * reserveA) / reserveB, desiredB];
}

export async function boundsOf(
  ctx: CheckContext,
  router: Address,
  call: RouterCall,
  sPpm: bigint,
): Promise<Bound[]> {
  const read = <T>(address: Address, functionName: string, args: readonly unknown[] = []) =>
    ctx.client.readContract({
      address,
      abi: V2_NAMED_VIEWS_ABI,
      functionName: functionName as never,
      args: args as never,
      blockNumber: call.before,
    }) as Promise<T>;
  const a = call.args;
  const fn = call.fn;
  const quoteOut = async (amountIn: bigint, path: readonly Address[]) =>
    (await read<bigint[]>(router, "getAmountsOut", [amountIn, path])).at(-1)!;
  const quoteIn = async (amountOut: bigint, path: readonly Address[]) =>
    (await read<bigint[]>(router, "getAmountsIn", [amountOut, path]))[0]!;
  if (fn.startsWith("swapExact")) {
    const eth = fn.startsWith("swapExactETH");
    const amountIn = eth ? call.value : (a[0] as bigint);
    const amountOutMin = (eth ? a[0] : a[1]) as bigint;
    const path = (eth ? a[1] : a[2]) as Address[];
    const quote = fn.endsWith("SupportingFeeOnTransferTokens")
      ? arrived(call, path.at(-1)!, fn.includes("ForETH") ? router : (a.at(-2) as Address))
      : await quoteOut(amountIn, path);
    return [
      { what: "amountOutMin", actual: amountOutMin, op: "gte", required: floorBound(quote, sPpm) },
      { what: "amountOutMin", actual: amountOutMin, op: "gte", required: 1n },
    ];
  }
  if (fn.startsWith("swap")) {
    const eth = fn === "swapETHForExactTokens";
    const amountOut = a[0] as bigint;
    const amountInMax = eth ? call.value : (a[1] as bigint);
    const path = (eth ? a[1] : a[2]) as Address[];
    const quote = await quoteIn(amountOut, path);
    return [
      {
        what: eth ? "value (amountInMax)" : "amountInMax",
        actual: amountInMax,
        op: "lte",
        required: ceilBound(quote, sPpm),
      },
    ];
  }
  if (fn === "addLiquidity" || fn === "addLiquidityETH") {
    // Each minimum against what the pool takes of the offer at the reserves before the call (the
    // Uniswap interface's amounts), which is never more than the amount offered.
    const eth = fn === "addLiquidityETH";
    const weth = eth ? await read<Address>(router, "WETH") : undefined;
    const [tokenA, tokenB] = (eth ? [a[0], weth] : [a[0], a[1]]) as [Address, Address];
    const [desiredA, desiredB] = (eth ? [a[1], call.value] : [a[2], a[3]]) as [bigint, bigint];
    const [minA, minB] = (eth ? [a[2], a[3]] : [a[4], a[5]]) as [bigint, bigint];
    const [takenA, takenB] = await amountsTaken(read, router, tokenA, tokenB, desiredA, desiredB);
    return [
      {
        what: eth ? "amountTokenMin" : "amountAMin",
        actual: minA,
        op: "gte",
        required: floorBound(takenA, sPpm),
      },
      {
        what: eth ? "amountETHMin" : "amountBMin",
        actual: minB,
        op: "gte",
        required: floorBound(takenB, sPpm),
      },
    ];
  }
  // removeLiquidity*: each minimum against the burned share at the reserves before the call.
  const eth = fn.startsWith("removeLiquidityETH");
  const weth = eth ? await read<Address>(router, "WETH") : undefined;
  const [tokenA, tokenB] = (eth ? [a[0], weth] : [a[0], a[1]]) as [Address, Address];
  const liquidity = (eth ? a[1] : a[2]) as bigint;
  const [minA, minB] = (eth ? [a[2], a[3]] : [a[3], a[4]]) as [bigint, bigint];
  const factory = await read<Address>(router, "factory");
  const pair = await read<Address>(factory, "getPair", [tokenA, tokenB]);
  const supply = await read<bigint>(pair, "totalSupply");
  const share = async (token: Address) =>
    supply === 0n ? 0n : ((await read<bigint>(token, "balanceOf", [pair])) * liquidity) / supply;
  return [
    {
      what: eth ? "amountTokenMin" : "amountAMin",
      actual: minA,
      op: "gte",
      required: floorBound(await share(tokenA), sPpm),
    },
    {
      what: eth ? "amountETHMin" : "amountBMin",
      actual: minB,
      op: "gte",
      required: floorBound(await share(tokenB), sPpm),
    },
    { what: "minimums", actual: minA < minB ? minA : minB, op: "gte", required: 1n },
  ];
}

/**
 * The requested price protection: every successful swap or liquidity call the
 * attempt made to `router` states a bound at least as tight as the rules in the prompt, read from
 * its calldata against the chain state just before it (the block before its own):
 * exact-in amountOutMin ≥ getAmountsOut·(1 − s) and > 0 (a SupportingFeeOnTransferTokens swap: ≥ what
 * arrived·(1 − s), since a transfer fee makes the quote overstate it); exact-out amountInMax ≤ getAmountsIn·(1 + s);
 * add liquidity: each minimum ≥ its desired amount·(1 − s); remove: each minimum ≥ reserve ×
 * liquidity / totalSupply · (1 − s) and > 0. One rounding tolerance (0.01 %) applies to every bound.
 * `desired` optionally pins the amounts an add offers (the requested amounts in full).
 */
export const priceBounds = defineCheck({
  description:
    "Every swap/liquidity call to `router` states a bound at least as tight as the prompt's rules (s = `slippagePct`, default 1), read from its calldata against the state before it.",
  args: {
    router: { $ref: "#/definitions/expr", description: "the router address" },
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
        "add liquidity: the amount each token must be offered (desired) in full; the router's WETH side of addLiquidityETH is the value sent",
    },
  },
  required: ["router"],
  example: { router: "contracts.pancake_router", slippagePct: "5" },
  build: (args, compile) => {
    const router = exprArg(args, "router", compile);
    const slippage = optionalExprArg(args, "slippagePct", compile);
    const desiredArg = args.desired;
    if (desiredArg !== undefined && !Array.isArray(desiredArg))
      throw new CheckArgsError("desired", "must be a list of { token, amount }");
    const desired = ((desiredArg ?? []) as Record<string, unknown>[]).map((d, i) => {
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
        return {
          router: getAddress(String(await evaluateExpr(router, scope))),
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
        const p = prepared as { router: Address; sPpm: bigint; desired: { token: string; amount: bigint }[] };
        const calls = await decodeRouterCalls(ctx, p.router);
        if (calls.length === 0)
          return { passed: false, detail: "no successful swap or liquidity call to the router" };
        const problems: string[] = [];
        const seen: string[] = [];
        const weth = p.desired.length
          ? String(
              await ctx.client.readContract({
                address: p.router,
                abi: V2_NAMED_VIEWS_ABI,
                functionName: "WETH",
              }),
            ).toLowerCase()
          : "";
        for (const call of calls) {
          for (const b of await boundsOf(ctx, p.router, call, p.sPpm)) {
            const ok = b.op === "gte" ? b.actual >= b.required : b.actual <= b.required;
            seen.push(`${call.fn} ${b.what} ${b.actual} ${b.op === "gte" ? "≥" : "≤"} ${b.required}`);
            if (!ok)
              problems.push(`${call.fn}: ${b.what} ${b.actual} ${b.op === "gte" ? "<" : ">"} ${b.required}`);
          }
          if (!call.fn.startsWith("addLiquidity")) continue;
          const offered: Record<string, bigint> =
            call.fn === "addLiquidity"
              ? {
                  [String(call.args[0]).toLowerCase()]: call.args[2] as bigint,
                  [String(call.args[1]).toLowerCase()]: call.args[3] as bigint,
                }
              : { [String(call.args[0]).toLowerCase()]: call.args[1] as bigint, [weth]: call.value };
          for (const d of p.desired) {
            const got = offered[d.token];
            if (got !== undefined && got !== d.amount)
              problems.push(`${call.fn}: offers ${got} of ${d.token}, requested ${d.amount}`);
          }
        }
        const sPct = Number(p.sPpm) / 10_000;
        return problems.length
          ? { passed: false, detail: `s = ${sPct} %: ${problems.join("; ")}` }
          : { passed: true, detail: `s = ${sPct} %: ${seen.join("; ")}` };
      },
    };
  },
});
