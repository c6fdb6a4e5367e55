import { asBigInt, type Expr, evaluateExpr, formatExpr, parseExpr, type Value } from "../../expr/expr.ts";
import { allowOnly, exprArg } from "../args.ts";
import {
  type CompareOp,
  compareValues,
  describeComparison,
  parseOp,
  parseTolerance,
  type Tolerance,
} from "../compare.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, type CheckCompileContext, type CheckFactory, defineCheck } from "../types.ts";

/** The comparison a check makes between actual and expected (shared by the state and log checks). */
export const OP_ARG = {
  enum: ["eq", "gte", "lte", "gt", "lt"],
  description: "comparison of actual with expected (default eq)",
};

/** How far actual may be from expected: relative ("0.01%") or absolute, in raw units. */
const TOLERANCE_ARG = {
  type: "string",
  pattern: "^(\\d+(\\.\\d{1,4})?%|\\d+)$",
  description: 'relative ("0.01%") or absolute raw units ("1000")',
};

/** Composite tasks: the state `expected` is evaluated at (init or final). */
const EXPECTED_AT_ARG = {
  enum: ["pre", "post"],
  description: "composite: evaluate expected at init (pre, default) or final (post, e.g. with transferred())",
};

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
export const stateDelta = defineCheck({
  description: "The change of any readable quantity between pre and post compares with `expected`.",
  args: {
    read: {
      $ref: "#/definitions/expr",
      description: "the quantity, e.g. staked(contracts.simple_staking, agent)",
    },
    expected: { $ref: "#/definitions/expr", description: "the change" },
    op: OP_ARG,
    tolerance: TOLERANCE_ARG,
    plusFee: { type: "boolean", description: "add the fees the agent paid back to the observed change" },
    expectedAt: EXPECTED_AT_ARG,
  },
  required: ["read", "expected"],
  example: { read: "staked(contracts.simple_staking, agent)", expected: "wei(x)" },
  build: (args, compile) => {
    return deltaCheck({
      read: exprArg(args, "read", compile),
      expected: exprArg(args, "expected", compile),
      ...common(args),
      plusFee: args.plusFee === true,
    });
  },
});

/** A quantity read at `post` compared with `expected` (evaluated at `pre`). Args: `{ read, expected, op?, tolerance? }`. */
export const stateIs = defineCheck({
  description: "A quantity read at post compares with `expected`.",
  args: {
    read: { $ref: "#/definitions/expr", description: "the quantity" },
    expected: { $ref: "#/definitions/expr", description: "its value" },
    op: OP_ARG,
    tolerance: TOLERANCE_ARG,
    expectedAt: EXPECTED_AT_ARG,
  },
  required: ["read", "expected"],
  example: { read: "ownerOf(contracts.erc721_token, id)", expected: "to" },
  build: (args, compile) => {
    return isCheck({
      read: exprArg(args, "read", compile),
      expected: exprArg(args, "expected", compile),
      ...common(args),
    });
  },
});

function sugar(args: Record<string, unknown>, fields: string[], compile: CheckCompileContext, read: string) {
  allowOnly(args, [...fields, "expected", "op", "tolerance", "plusFee", "expectedAt"]);
  for (const field of fields) exprArg(args, field, compile);
  return { read: parseExpr(read), expected: exprArg(args, "expected", compile), ...common(args) };
}

/** ERC-20 balance change of `account` in `token`. Args: `{ token, account, expected, op?, tolerance? }`. */
export const tokenBalanceDelta = defineCheck({
  description: "The ERC-20 balance change of `account` in `token` compares with `expected`.",
  args: {
    token: { $ref: "#/definitions/expr", description: "ERC-20 address" },
    account: { $ref: "#/definitions/expr", description: "holder" },
    expected: { $ref: "#/definitions/expr", description: "change in wei (negative: spent)" },
    op: OP_ARG,
    tolerance: TOLERANCE_ARG,
    plusFee: { type: "boolean", description: "add the fees the agent paid back to the observed change" },
    expectedAt: EXPECTED_AT_ARG,
  },
  required: ["token", "account", "expected"],
  example: { token: "contracts.usdt", account: "to", expected: "wei(x)" },
  build: (args, compile) => {
    const o = sugar(args, ["token", "account"], compile, `tokenBalance(${args.token}, ${args.account})`);
    return deltaCheck({ ...o, plusFee: false, label: `balanceOf(${args.account}) of ${args.token}` });
  },
});

/** Native (BNB) balance change of `account`; `plusFee: true` adds back the fee the agent paid. */
export const nativeBalanceDelta = defineCheck({
  description:
    "The BNB balance change of `account` compares with `expected`; `plusFee` adds back the agent's fee.",
  args: {
    account: { $ref: "#/definitions/expr", description: "holder" },
    expected: { $ref: "#/definitions/expr", description: "change in wei" },
    op: OP_ARG,
    tolerance: TOLERANCE_ARG,
    plusFee: { type: "boolean", description: "add the fees the agent paid back to the observed change" },
    expectedAt: EXPECTED_AT_ARG,
  },
  required: ["account", "expected"],
  example: { account: "agent", expected: "-wei(x)", plusFee: true },
  build: (args, compile) => {
    const o = sugar(args, ["account"], compile, `balance(${args.account})`);
    return deltaCheck({ ...o, plusFee: args.plusFee === true, label: `BNB balance of ${args.account}` });
  },
});

/** ERC-20 allowance at `post`. Args: `{ token, owner, spender, expected }`. */
export const allowanceIs = defineCheck({
  description: "The ERC-20 allowance(owner, spender) at post compares with `expected`.",
  args: {
    token: { $ref: "#/definitions/expr", description: "ERC-20 address" },
    owner: { $ref: "#/definitions/expr", description: "owner" },
    spender: { $ref: "#/definitions/expr", description: "spender" },
    expected: { $ref: "#/definitions/expr", description: "allowance in wei" },
    op: OP_ARG,
    tolerance: TOLERANCE_ARG,
    expectedAt: EXPECTED_AT_ARG,
  },
  required: ["token", "owner", "spender", "expected"],
  example: {
    token: "contracts.usdt",
    owner: "agent",
    spender: "contracts.pancake_router",
    expected: "wei(x)",
  },
  build: (args, compile) => {
    const o = sugar(
      args,
      ["token", "owner", "spender"],
      compile,
      `allowance(${args.token}, ${args.owner}, ${args.spender})`,
    );
    if (args.plusFee !== undefined) throw new CheckArgsError("plusFee", "does not apply to allowances");
    return isCheck({ ...o, label: `allowance(${args.owner} → ${args.spender})` });
  },
});
