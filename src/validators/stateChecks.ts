import { asBigInt, type Expr, evaluateExpr, formatExpr, parseExpr, type Value } from "../expr/expr.ts";
import { allowOnly, exprArg } from "./args.ts";
import {
  type CompareOp,
  compareValues,
  describeComparison,
  parseOp,
  parseTolerance,
  type Tolerance,
} from "./compare.ts";
import { scopeOf } from "./scopeOf.ts";
import { CheckArgsError, type CheckCompileContext, type CheckFactory } from "./types.ts";

type DeltaOptions = {
  read: Expr;
  expected: Expr;
  op: CompareOp;
  tolerance: Tolerance;
  plusFee: boolean;
  /** Evaluate `expected` at `post` (for amounts measured from the attempt's logs, e.g. `transferred`). */
  expectedAtPost?: boolean;
  label?: string;
};

function deltaCheck(o: DeltaOptions): ReturnType<CheckFactory> {
  return {
    async prepare(ctx) {
      const scope = scopeOf(ctx);
      return {
        before: asBigInt(await evaluateExpr(o.read, scope), "read"),
        expected: o.expectedAtPost ? undefined : await evaluateExpr(o.expected, scope),
      };
    },
    async evaluate(ctx, prepared) {
      const { before } = prepared as { before: bigint };
      const expected = o.expectedAtPost
        ? await evaluateExpr(o.expected, scopeOf(ctx))
        : (prepared as { expected: Value }).expected;
      const after = asBigInt(await evaluateExpr(o.read, scopeOf(ctx)), "read");
      const delta = after - before + (o.plusFee ? ctx.feesPaid : 0n);
      const what = `Δ ${o.label ?? formatExpr(o.read)}${o.plusFee ? " + fee" : ""}`;
      return {
        passed: compareValues(delta, o.op, expected, o.tolerance),
        detail: describeComparison(what, delta, o.op, expected, o.tolerance),
      };
    },
  };
}

function isCheck(o: {
  read: Expr;
  expected: Expr;
  op: CompareOp;
  tolerance: Tolerance;
  expectedAtPost?: boolean;
  label?: string;
}): ReturnType<CheckFactory> {
  return {
    prepare: async (ctx) => (o.expectedAtPost ? undefined : evaluateExpr(o.expected, scopeOf(ctx))),
    async evaluate(ctx, prepared) {
      const expected = o.expectedAtPost ? await evaluateExpr(o.expected, scopeOf(ctx)) : prepared;
      const actual = await evaluateExpr(o.read, scopeOf(ctx));
      const what = o.label ?? formatExpr(o.read);
      return {
        passed: compareValues(actual, o.op, expected as Value, o.tolerance),
        detail: describeComparison(what, actual, o.op, expected as Value, o.tolerance),
      };
    },
  };
}

const common = (args: Record<string, unknown>) => {
  if (args.expectedAt !== undefined && args.expectedAt !== "pre" && args.expectedAt !== "post")
    throw new CheckArgsError("expectedAt", 'must be "pre" (default) or "post"');
  return {
    op: parseOp(args.op),
    tolerance: parseTolerance(args.tolerance),
    expectedAtPost: args.expectedAt === "post",
  };
};

/**
 * The change of any readable quantity between `pre` and `post` compared with `expected`
 * (evaluated at `pre`). Args: `{ read: expr, expected: expr, op?, tolerance?, plusFee? }`;
 * `plusFee` adds the agent's fees back (ΔBNB(A) + fee).
 */
export const stateDelta: CheckFactory = (args, compile) => {
  allowOnly(args, ["read", "expected", "op", "tolerance", "plusFee", "expectedAt"]);
  return deltaCheck({
    read: exprArg(args, "read", compile),
    expected: exprArg(args, "expected", compile),
    ...common(args),
    plusFee: args.plusFee === true,
  });
};

/** A quantity read at `post` compared with `expected` (evaluated at `pre`). Args: `{ read, expected, op?, tolerance? }`. */
export const stateIs: CheckFactory = (args, compile) => {
  allowOnly(args, ["read", "expected", "op", "tolerance", "expectedAt"]);
  return isCheck({
    read: exprArg(args, "read", compile),
    expected: exprArg(args, "expected", compile),
    ...common(args),
  });
};

function sugar(args: Record<string, unknown>, fields: string[], compile: CheckCompileContext, read: string) {
  allowOnly(args, [...fields, "expected", "op", "tolerance", "plusFee", "expectedAt"]);
  for (const field of fields) exprArg(args, field, compile);
  return { read: parseExpr(read), expected: exprArg(args, "expected", compile), ...common(args) };
}

/** ERC-20 balance change of `account` in `token`. Args: `{ token, account, expected, op?, tolerance? }`. */
export const tokenBalanceDelta: CheckFactory = (args, compile) => {
  const o = sugar(args, ["token", "account"], compile, `tokenBalance(${args.token}, ${args.account})`);
  return deltaCheck({ ...o, plusFee: false, label: `balanceOf(${args.account}) of ${args.token}` });
};

/** Native (BNB) balance change of `account`; `plusFee: true` adds back the fee the agent paid. */
export const nativeBalanceDelta: CheckFactory = (args, compile) => {
  const o = sugar(args, ["account"], compile, `balance(${args.account})`);
  return deltaCheck({ ...o, plusFee: args.plusFee === true, label: `BNB balance of ${args.account}` });
};

/** ERC-20 allowance at `post`. Args: `{ token, owner, spender, expected }`. */
export const allowanceIs: CheckFactory = (args, compile) => {
  const o = sugar(
    args,
    ["token", "owner", "spender"],
    compile,
    `allowance(${args.token}, ${args.owner}, ${args.spender})`,
  );
  if (args.plusFee !== undefined) throw new CheckArgsError("plusFee", "does not apply to allowances");
  return isCheck({ ...o, label: `allowance(${args.owner} → ${args.spender})` });
};
