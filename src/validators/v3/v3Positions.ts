import { type Address, getAddress, maxUint128 } from "viem";
import { asBigInt, evaluateExpr } from "../../expr/expr.ts";
import { BALANCE_OF_ABI, NPM_ABI, QUOTER_V2_ABI } from "../abi.ts";
import { exprArg, optionalExprArg } from "../args.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, type CheckContext, defineCheck } from "../types.ts";

const FIELDS = ["token0", "token1", "fee", "tickLower", "tickUpper"] as const;

export type Position = {
  owner: Address;
  fields: Record<string, string>;
  liquidity: bigint;
  owed: [bigint, bigint];
};

/** The id of `owner`'s newest position NFT (its last tokenOfOwnerByIndex) at `post`, if it holds one. */
export async function newestPositionId(
  ctx: CheckContext,
  npm: Address,
  owner: Address,
): Promise<bigint | undefined> {
  const count = await ctx.client.readContract({
    address: npm,
    abi: NPM_ABI,
    functionName: "balanceOf",
    args: [owner],
  });
  if (count === 0n) return undefined;
  return ctx.client.readContract({
    address: npm,
    abi: NPM_ABI,
    functionName: "tokenOfOwnerByIndex",
    args: [owner, count - 1n],
  });
}

/** A position's fields, its owner and what `collect` would pay its owner now (fees and freed tokens). */
export async function readPosition(ctx: CheckContext, npm: Address, tokenId: bigint): Promise<Position> {
  const read = (functionName: "ownerOf" | "positions", args: readonly unknown[]) =>
    ctx.client.readContract({ address: npm, abi: NPM_ABI, functionName, args } as never) as Promise<any>;
  const owner = getAddress(await read("ownerOf", [tokenId]));
  const p = (await read("positions", [tokenId])) as readonly unknown[];
  const { result } = await ctx.client.simulateContract({
    account: owner,
    address: npm,
    abi: NPM_ABI,
    functionName: "collect",
    args: [{ tokenId, recipient: owner, amount0Max: maxUint128, amount1Max: maxUint128 }],
  });
  return {
    owner,
    fields: {
      token0: String(p[2]).toLowerCase(),
      token1: String(p[3]).toLowerCase(),
      fee: String(p[4]),
      tickLower: String(p[5]),
      tickUpper: String(p[6]),
    },
    liquidity: p[7] as bigint,
    owed: result as [bigint, bigint],
  };
}

/**
 * One Uniswap V3 position of the position manager `positions`, read at `post`: the one `tokenId`
 * names (read at `pre`), or else the newest of `owner`'s (its last tokenOfOwnerByIndex, read at
 * `post`). Holds iff it belongs to `owner`, every given field (token0, token1, fee, tickLower,
 * tickUpper; addresses compared case-insensitively) equals its expression, its liquidity is > 0
 * (or, with `liquidityDeltaPct` p, fell by p % of its `pre` liquidity within 0.01 %), and, with
 * `noFeesLeft`, a collect by its owner would now pay nothing.
 */
export const v3Position = defineCheck({
  description:
    "A V3 position NFT (tokenId, or the owner's newest) has the stated owner, pool, ticks, liquidity change and (noFeesLeft) nothing left to collect.",
  args: {
    positions: { $ref: "#/definitions/expr", description: "the NonfungiblePositionManager" },
    owner: { $ref: "#/definitions/expr", description: "who must own the position (e.g. agent)" },
    tokenId: { $ref: "#/definitions/expr", description: "the position (default: the owner's newest)" },
    token0: { $ref: "#/definitions/expr" },
    token1: { $ref: "#/definitions/expr" },
    fee: { $ref: "#/definitions/expr" },
    tickLower: { $ref: "#/definitions/expr" },
    tickUpper: { $ref: "#/definitions/expr" },
    liquidityDeltaPct: {
      $ref: "#/definitions/expr",
      description: "the liquidity must fall by this percentage of the pre liquidity (0.01 % tolerance)",
    },
    noFeesLeft: { type: "boolean", description: "collect by the owner would pay nothing at post" },
  },
  required: ["positions", "owner"],
  example: { positions: "contracts.v3_positions", owner: "agent", fee: "3000" },
  build: (args, compile) => {
    const npmE = exprArg(args, "positions", compile);
    const ownerE = exprArg(args, "owner", compile);
    const idE = optionalExprArg(args, "tokenId", compile);
    const pctE = optionalExprArg(args, "liquidityDeltaPct", compile);
    const fieldEs = FIELDS.flatMap((f) => {
      const e = optionalExprArg(args, f, compile);
      return e ? [[f, e] as const] : [];
    });
    if (args.noFeesLeft !== undefined && typeof args.noFeesLeft !== "boolean")
      throw new CheckArgsError("noFeesLeft", "must be true or false");
    const noFeesLeft = args.noFeesLeft === true;
    return {
      async prepare(ctx) {
        const scope = scopeOf(ctx);
        const npm = getAddress(String(await evaluateExpr(npmE, scope)));
        const tokenId = idE ? asBigInt(await evaluateExpr(idE, scope), "tokenId") : undefined;
        const fields: Record<string, string> = {};
        for (const [f, e] of fieldEs) fields[f] = String(await evaluateExpr(e, scope)).toLowerCase();
        return {
          npm,
          owner: getAddress(String(await evaluateExpr(ownerE, scope))),
          tokenId,
          fields,
          pct: pctE ? String(await evaluateExpr(pctE, scope)) : undefined,
          before: tokenId === undefined ? undefined : (await readPosition(ctx, npm, tokenId)).liquidity,
        };
      },
      async evaluate(ctx, prepared) {
        const p = prepared as {
          npm: Address;
          owner: Address;
          tokenId?: bigint;
          fields: Record<string, string>;
          pct?: string;
          before?: bigint;
        };
        const tokenId = p.tokenId ?? (await newestPositionId(ctx, p.npm, p.owner));
        if (tokenId === undefined) return { passed: false, detail: `${p.owner} holds no position` };
        let pos: Position;
        try {
          pos = await readPosition(ctx, p.npm, tokenId);
        } catch {
          return { passed: false, detail: `position ${tokenId} no longer exists` };
        }
        const wrong: string[] = [];
        if (pos.owner !== p.owner) wrong.push(`owner ${pos.owner}, expected ${p.owner}`);
        for (const [f, want] of Object.entries(p.fields))
          if (pos.fields[f] !== want) wrong.push(`${f} ${pos.fields[f]}, expected ${want}`);
        if (p.pct !== undefined && p.before !== undefined) {
          // p % of the pre liquidity, as a decimal percentage with up to 4 places.
          const [whole, frac = ""] = p.pct.split(".");
          const pctE4 = BigInt(whole!) * 10_000n + BigInt(frac.padEnd(4, "0").slice(0, 4) || "0");
          const expected = (p.before * pctE4) / 1_000_000n;
          const actual = p.before - pos.liquidity;
          const slack = expected / 10_000n + 1n;
          if (actual < expected - slack || actual > expected + slack)
            wrong.push(`liquidity fell by ${actual}, expected ${expected} (${p.pct} % of ${p.before})`);
        } else if (pos.liquidity === 0n) wrong.push("liquidity 0");
        if (noFeesLeft && (pos.owed[0] !== 0n || pos.owed[1] !== 0n))
          wrong.push(`still collectable ${pos.owed[0]} / ${pos.owed[1]}`);
        const seen = `position ${tokenId}: ${Object.entries(pos.fields)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}, liquidity ${pos.liquidity}, collectable ${pos.owed.join(" / ")}`;
        return wrong.length
          ? { passed: false, detail: `${seen}: ${wrong.join("; ")}` }
          : { passed: true, detail: seen };
      },
    };
  },
});

/**
 * "Whichever pool gives more": at `pre` QuoterV2 quotes selling `amountIn` of `tokenIn`
 * for `tokenOut` in each fee tier of `fees`; at `post` the `account`'s tokenOut balance must have
 * risen by at least the best quote less 0.01 % — which only the best pool can pay when the quotes
 * differ by more than that. In a composite, `pre` is the state before the first round.
 */
export const v3BestQuote = defineCheck({
  description:
    "The account received at least the best QuoterV2 quote (pre) among the fee tiers, less 0.01 %: the trade went through the pool that pays most.",
  args: {
    quoter: { $ref: "#/definitions/expr", description: "the QuoterV2 address" },
    tokenIn: { $ref: "#/definitions/expr" },
    tokenOut: { $ref: "#/definitions/expr" },
    amountIn: { $ref: "#/definitions/expr", description: "wei of tokenIn sold" },
    fees: { type: "array", minItems: 2, items: { type: "integer" }, description: "the fee tiers to compare" },
    account: { $ref: "#/definitions/expr", description: "who receives tokenOut" },
  },
  required: ["quoter", "tokenIn", "tokenOut", "amountIn", "fees", "account"],
  example: {
    quoter: "contracts.v3_quoter",
    tokenIn: "contracts.wbnb",
    tokenOut: "contracts.usdt",
    amountIn: "wei(x)",
    fees: [500, 3000],
    account: "agent",
  },
  build: (args, compile) => {
    const es = {
      quoter: exprArg(args, "quoter", compile),
      tokenIn: exprArg(args, "tokenIn", compile),
      tokenOut: exprArg(args, "tokenOut", compile),
      amountIn: exprArg(args, "amountIn", compile),
      account: exprArg(args, "account", compile),
    };
    const fees = args.fees;
    if (!Array.isArray(fees) || fees.length < 2 || !fees.every((f) => Number.isInteger(f)))
      throw new CheckArgsError("fees", "must list at least two fee tiers");
    return {
      async prepare(ctx) {
        const scope = scopeOf(ctx);
        const addr = async (e: (typeof es)["quoter"]) => getAddress(String(await evaluateExpr(e, scope)));
        const [quoter, tokenIn, tokenOut, account] = await Promise.all([
          addr(es.quoter),
          addr(es.tokenIn),
          addr(es.tokenOut),
          addr(es.account),
        ]);
        const amountIn = asBigInt(await evaluateExpr(es.amountIn, scope), "amountIn");
        const quotes: [number, bigint][] = [];
        for (const fee of fees as number[]) {
          const { result } = await ctx.client.simulateContract({
            address: quoter,
            abi: QUOTER_V2_ABI,
            functionName: "quoteExactInputSingle",
            args: [{ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n }],
          });
          quotes.push([fee, result[0]]);
        }
        const balance = await ctx.client.readContract({
          address: tokenOut,
          abi: BALANCE_OF_ABI,
          functionName: "balanceOf",
          args: [account],
        });
        return { quotes, tokenOut, account, balance };
      },
      async evaluate(ctx, prepared) {
        const p = prepared as {
          quotes: [number, bigint][];
          tokenOut: Address;
          account: Address;
          balance: bigint;
        };
        const best = p.quotes.reduce((a, b) => (b[1] > a[1] ? b : a));
        const after = await ctx.client.readContract({
          address: p.tokenOut,
          abi: BALANCE_OF_ABI,
          functionName: "balanceOf",
          args: [p.account],
        });
        const got = after - p.balance;
        const required = best[1] - best[1] / 10_000n;
        const quotes = p.quotes.map(([fee, q]) => `fee ${fee}: ${q}`).join(", ");
        return {
          passed: got >= required,
          detail: `received ${got}, best quote (fee ${best[0]}) ${best[1]} less 0.01 % = ${required}; quotes ${quotes}`,
        };
      },
    };
  },
});
