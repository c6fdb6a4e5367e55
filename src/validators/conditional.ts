import { evaluateExpr, formatExpr } from "../expr/expr.ts";
import type { CheckSpec } from "../tasks/types.ts";
import { exprArg } from "./args.ts";
import { compareValues, describeComparison, parseOp } from "./compare.ts";
import { scopeOf } from "./scopeOf.ts";
import {
  type Check,
  CheckArgsError,
  type CheckCompileContext,
  type CheckDefinition,
  defineCheck,
} from "./types.ts";

type BuildCheck = (spec: CheckSpec, compile: CheckCompileContext) => Pick<Check, "prepare" | "evaluate">;

/**
 * `ifElse` (issue 20, FRONTIER item 5 "conditional judgement decided at run time"): the user's rule
 * (`read` `op` `expected`, both evaluated at `pre`, the block the answer read) picks which of two
 * checks must hold — e.g. "borrow only if the health factor afterwards stays ≥ 1.5, otherwise
 * refuse": `ifTrue` checks the borrow, `ifFalse` is `refused`. Both branches are prepared at `pre`, so each
 * sees the state before the answer; the detail names the branch the rule chose.
 *
 * Made from the registry's `buildCheck` (passed in, so this module does not import the registry).
 */
export const makeIfElse = (buildCheck: BuildCheck): CheckDefinition =>
  defineCheck({
    description:
      "The rule `read op expected` (evaluated at pre) chooses the check that must hold: `ifTrue` when it holds, `ifFalse` otherwise.",
    args: {
      read: { $ref: "#/definitions/expr", description: "left side of the rule, evaluated at pre" },
      op: { enum: ["eq", "gte", "lte", "gt", "lt"], description: "comparison of read with expected" },
      expected: { $ref: "#/definitions/expr", description: "right side of the rule, evaluated at pre" },
      ifTrue: { $ref: "#/definitions/check", description: "the check that must hold when the rule holds" },
      ifFalse: { $ref: "#/definitions/check", description: "the check that must hold when it does not" },
    },
    required: ["read", "op", "expected", "ifTrue", "ifFalse"],
    example: {
      read: "call(contracts.mm_wbtc_usdc, 'healthFactor(address)(uint256)', agent)",
      op: "gte",
      expected: "wei(1.5)",
      ifTrue: { check: "txSucceeded" },
      ifFalse: { check: "refused" },
    },
    build: (args, compile) => {
      const read = exprArg(args, "read", compile);
      const expected = exprArg(args, "expected", compile);
      const op = parseOp(args.op);
      const branch = (field: "ifTrue" | "ifFalse") => {
        try {
          return buildCheck(args[field] as CheckSpec, compile);
        } catch (error) {
          if (error instanceof CheckArgsError)
            throw new CheckArgsError(`${field}.${error.field}`, error.message);
          throw error;
        }
      };
      const [yes, no] = [branch("ifTrue"), branch("ifFalse")];
      return {
        async prepare(ctx) {
          const scope = scopeOf(ctx);
          const [actual, bound] = [await evaluateExpr(read, scope), await evaluateExpr(expected, scope)];
          const holds = compareValues(actual, op, bound, undefined);
          const rule = describeComparison(formatExpr(read), actual, op, bound, undefined);
          return { holds, rule, prepared: await (holds ? yes : no).prepare?.(ctx) };
        },
        async evaluate(ctx, prepared) {
          const p = prepared as { holds: boolean; rule: string; prepared: unknown };
          const outcome = await (p.holds ? yes : no).evaluate(ctx, p.prepared);
          return {
            passed: outcome.passed,
            detail: `rule ${p.holds ? "holds" : "fails"} (${p.rule}): ${outcome.detail}`,
          };
        },
      };
    },
  });
