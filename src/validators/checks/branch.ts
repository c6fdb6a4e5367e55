import { evaluateExpr } from "../../expr/expr.ts";
import { exprArg } from "../args.ts";
import { compareValues, parseOp } from "../compare.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, type CheckCompileContext, defineCheck } from "../types.ts";
import { OP_ARG } from "./stateChecks.ts";
import { buildSubChecks } from "./subChecks.ts";

/** How a check list is built (the registry's builder, passed in so this module does not import it). */
type BuildCheck = Parameters<typeof buildSubChecks>[0];

function buildList(field: string, list: unknown, build: BuildCheck, compile: CheckCompileContext) {
  if (!Array.isArray(list) || list.length === 0)
    throw new CheckArgsError(field, "must be a non-empty list of checks");
  return buildSubChecks(build, list, field, compile);
}

/**
 * `branch` (tasks/hard/README.md "Tasks": conditional judgement in a workflow): the user states a rule that decides at run
 * time which of two outcomes is right ("if my health factor is then at least H, withdraw …;
 * otherwise report and stop"). The condition `read op expected` is evaluated once, at `pre` (composite:
 * `init`), from the pre-state and the task's parameters, so it names the branch the instance is on;
 * then every check of that branch (`whenTrue` when the condition holds, `whenFalse` when not) must hold, and the
 * other branch is not evaluated. A branch may contain `refused` (the refusal is right only there).
 */
export const makeBranch = (build: BuildCheck) =>
  defineCheck({
    description:
      "Evaluates `read op expected` at pre (composite: init); holds iff every check of the branch it selects (`whenTrue` if true, `whenFalse` if false) holds.",
    args: {
      read: { $ref: "#/definitions/expr", description: "the left side of the condition, read at pre" },
      op: OP_ARG,
      expected: { $ref: "#/definitions/expr", description: "the right side of the condition, at pre" },
      whenTrue: {
        type: "array",
        minItems: 1,
        items: { $ref: "#/definitions/check" },
        description: "checks that must hold when the condition holds",
      },
      whenFalse: {
        type: "array",
        minItems: 1,
        items: { $ref: "#/definitions/check" },
        description: "checks that must hold when it does not",
      },
    },
    required: ["read", "expected", "whenTrue", "whenFalse"],
    example: {
      read: "call(contracts.lend_wbnb, 'healthFactor(address)(uint256)', agent)",
      op: "gte",
      expected: "wei(h)",
      whenTrue: [{ check: "txSucceeded" }],
      whenFalse: [{ check: "refused" }],
    },
    build: (args, compile) => {
      const read = exprArg(args, "read", compile);
      const expected = exprArg(args, "expected", compile);
      const op = parseOp(args.op);
      const sides = {
        whenTrue: buildList("whenTrue", args.whenTrue, build, compile),
        whenFalse: buildList("whenFalse", args.whenFalse, build, compile),
      };
      return {
        async prepare(ctx) {
          const scope = scopeOf(ctx);
          const left = await evaluateExpr(read, scope);
          const right = await evaluateExpr(expected, scope);
          const holds = compareValues(left, op, right, undefined);
          const side = holds ? "whenTrue" : "whenFalse";
          const prepared = await Promise.all(sides[side].map((c) => c.prepare?.(ctx)));
          return { side, condition: `${left} ${op} ${right}: ${holds}`, prepared };
        },
        async evaluate(ctx, state) {
          const s = state as { side: "whenTrue" | "whenFalse"; condition: string; prepared: unknown[] };
          const results = [];
          for (const [i, check] of sides[s.side].entries())
            results.push(await check.evaluate(ctx, s.prepared[i]));
          return {
            passed: results.every((r) => r.passed),
            detail: `${s.side} (${s.condition}): ${results.map((r) => `${r.passed ? "✓" : "✗"} ${r.detail}`).join("; ")}`,
          };
        },
      };
    },
  });
