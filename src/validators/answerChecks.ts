import { evaluateExpr } from "../tasks/expr.ts";
import { readAnswerField } from "./answer.ts";
import { allowOnly, exprArg } from "./args.ts";
import { chainScope } from "./chainScope.ts";
import { compareValues, describeComparison, parseTolerance } from "./compare.ts";
import { CheckArgsError, type CheckFactory } from "./types.ts";

const noAnswer = { passed: false, detail: "no answer object was returned" } as const;

/** Every field the task's answer spec names is present with its declared type (the 40 of TASKS.md §0). */
export const answerFormat: CheckFactory = (args, compile) => {
  allowOnly(args, []);
  if (compile.answerFields.size === 0)
    throw new CheckArgsError("check", "answerFormat needs the task to declare answer.fields");
  return {
    async evaluate(ctx) {
      if (!ctx.answer) return noAnswer;
      const problems: string[] = [];
      for (const [name, field] of Object.entries(ctx.spec.answer!.fields)) {
        const read = readAnswerField(ctx.answer[name], field.type);
        if ("error" in read) problems.push(`${name}: ${read.error}`);
      }
      return problems.length === 0
        ? { passed: true, detail: "every field present with its type" }
        : { passed: false, detail: problems.join("; ") };
    },
  };
};

/**
 * One answer field equals the truth read from the chain at the same state (`expected`, evaluated
 * right after the module returned). Args: `{ field, expected, tolerance? }`.
 */
export const answerEquals: CheckFactory = (args, compile) => {
  allowOnly(args, ["field", "expected", "tolerance"]);
  const field = args.field;
  if (typeof field !== "string" || !compile.answerFields.has(field))
    throw new CheckArgsError("field", `must name a field of answer.fields, got ${JSON.stringify(field)}`);
  const expected = exprArg(args, "expected", compile);
  const tolerance = parseTolerance(args.tolerance);
  return {
    prepare: async (ctx) => evaluateExpr(expected, chainScope(ctx.client, ctx.instance.params, ctx.world)),
    async evaluate(ctx, truth) {
      if (!ctx.answer) return noAnswer;
      const read = readAnswerField(ctx.answer[field], ctx.spec.answer!.fields[field]!.type);
      if ("error" in read) return { passed: false, detail: `${field}: ${read.error}` };
      const t = truth as bigint | string;
      return {
        passed: compareValues(read.value, "eq", t, tolerance),
        detail: describeComparison(field, read.value, "eq", t, tolerance),
      };
    },
  };
};
