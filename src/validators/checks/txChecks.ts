import { evaluateExpr, formatExpr } from "../../expr/expr.ts";
import { exprArg, optionalExprArg } from "../args.ts";
import { compareValues, describeComparison, parseTolerance } from "../compare.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, defineCheck } from "../types.ts";
import { agentCalls } from "./traces.ts";

const noTx = { passed: false, detail: "no transaction was sent" } as const;
const preScope = scopeOf;

/** the transaction was mined with status 1 (`ok` of docs/SCORING.md "Weights"). */
export const txSucceeded = defineCheck({
  description: "The transaction was mined with status 1.",
  args: {},
  example: {},
  build: () => {
    return {
      async evaluate(ctx) {
        if (!ctx.tx) return noTx;
        if (ctx.tx.receipt.status === "success") return { passed: true, detail: "mined with status 1" };
        return { passed: false, detail: `reverted${ctx.tx.revertReason ? `: ${ctx.tx.revertReason}` : ""}` };
      },
    };
  },
});

/**
 * The transaction calls the given address (case-insensitive): `tx.to`, or, for a batch sent through
 * Multicall3, every call it forwarded (src/validators/checks/traces.ts `agentCalls`). Args: `{ address: expr }`.
 */
export const txTo = defineCheck({
  description: "tx.to is the given address (case-insensitive); through Multicall3, every call it forwards.",
  args: { address: { $ref: "#/definitions/expr", description: "the address the transaction must call" } },
  required: ["address"],
  example: { address: "contracts.usdt" },
  build: (args, compile) => {
    const address = exprArg(args, "address", compile);
    return {
      prepare: async (ctx) => evaluateExpr(address, preScope(ctx)),
      async evaluate(ctx, expected) {
        if (!ctx.tx) return noTx;
        const direct = ctx.tx.to ?? "(contract creation)";
        if (compareValues(direct, "eq", expected as string, undefined))
          return {
            passed: true,
            detail: describeComparison("tx.to", direct, "eq", expected as string, undefined),
          };
        const calls = await agentCalls(ctx, ctx.tx);
        const forwarded =
          calls.length > 0 && calls.every((c) => compareValues(c.to, "eq", expected as string, undefined));
        const seen = [...new Set(calls.map((c) => c.to))].join(", ");
        return {
          passed: forwarded,
          detail: describeComparison(
            forwarded ? "called through Multicall3" : "tx.to",
            forwarded ? seen : direct,
            "eq",
            expected as string,
            undefined,
          ),
        };
      },
    };
  },
});

/**
 * The calldata's first 4 bytes are in `selectors`; `"0x"` in the list allows empty calldata. For a
 * batch sent through Multicall3, every call it forwarded must have one of them.
 */
export const selectorIn = defineCheck({
  description:
    "The calldata's first 4 bytes are one of `selectors` (\"0x\" allows empty calldata); through Multicall3, every forwarded call's.",
  args: {
    selectors: {
      type: "array",
      minItems: 1,
      items: { type: "string", pattern: "^0x([0-9a-fA-F]{8})?$" },
      description: "allowed 4-byte selectors",
    },
  },
  required: ["selectors"],
  example: { selectors: ["0xa9059cbb"] },
  build: (args) => {
    const selectors = args.selectors;
    if (
      !Array.isArray(selectors) ||
      selectors.length === 0 ||
      !selectors.every((s) => /^0x([0-9a-fA-F]{8})?$/.test(String(s)))
    )
      throw new CheckArgsError(
        "selectors",
        'must be a non-empty list of 4-byte selectors ("0x12345678") or "0x"',
      );
    const allowed = selectors.map((s: string) => s.toLowerCase());
    return {
      async evaluate(ctx) {
        if (!ctx.tx) return noTx;
        const selectorOf = (input: string) => {
          const data = input.toLowerCase();
          return data.length >= 10 ? data.slice(0, 10) : data === "0x" ? "0x" : data;
        };
        const own = selectorOf(ctx.tx.input);
        if (allowed.includes(own))
          return { passed: true, detail: `selector ${own}, allowed ${allowed.join(" | ")}` };
        const found = (await agentCalls(ctx, ctx.tx)).map((c) => selectorOf(c.input));
        const forwarded = found.length > 0 && found.every((x) => allowed.includes(x));
        return {
          passed: forwarded,
          detail: `selector ${forwarded ? `${found.join(", ")} (through Multicall3)` : own}, allowed ${allowed.join(" | ")}`,
        };
      },
    };
  },
});

/** the wei sent equals `expected` (evaluated at `pre`), within `tolerance`. */
export const txValue = defineCheck({
  description: "The wei the transaction sends equals `expected` (evaluated at pre).",
  args: {
    expected: { $ref: "#/definitions/expr", description: "wei" },
    tolerance: {
      type: "string",
      pattern: "^(\\d+(\\.\\d{1,4})?%|\\d+)$",
      description: 'relative ("0.01%") or absolute raw units ("1000")',
    },
  },
  required: ["expected"],
  example: { expected: "wei(x)" },
  build: (args, compile) => {
    const expected = exprArg(args, "expected", compile);
    const tolerance = parseTolerance(args.tolerance);
    return {
      prepare: async (ctx) => evaluateExpr(expected, preScope(ctx)),
      async evaluate(ctx, want) {
        if (!ctx.tx) return noTx;
        const w = want as bigint;
        return {
          passed: compareValues(ctx.tx.value, "eq", w, tolerance),
          detail: describeComparison("tx.value (wei)", ctx.tx.value, "eq", w, tolerance),
        };
      },
    };
  },
});

/** the calldata equals `expected` exactly (hex, case-insensitive). */
export const txInput = defineCheck({
  description: "The calldata equals `expected` exactly (hex, case-insensitive).",
  args: { expected: { $ref: "#/definitions/expr", description: "hex calldata" } },
  required: ["expected"],
  example: { expected: "utf8(msg)" },
  build: (args, compile) => {
    const expected = exprArg(args, "expected", compile);
    return {
      prepare: async (ctx) => evaluateExpr(expected, preScope(ctx)),
      async evaluate(ctx, want) {
        if (!ctx.tx) return noTx;
        const passed = ctx.tx.input.toLowerCase() === String(want).toLowerCase();
        return {
          passed,
          detail: `tx input ${passed ? "matches" : `is ${ctx.tx.input}, expected ${want}`} (${formatExpr(expected)})`,
        };
      },
    };
  },
});

/** Optional arg helper re-exported for factories that accept an optional address. */
export { optionalExprArg };
