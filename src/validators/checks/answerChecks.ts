import { evaluateExpr } from "../../expr/expr.ts";
import { exprArg } from "../args.ts";
import { compareValues, describeComparison, parseTolerance } from "../compare.ts";
import { scopeOf } from "../scopeOf.ts";
import { CheckArgsError, defineCheck } from "../types.ts";
import { readAnswerField } from "./answer.ts";

const noAnswer = { passed: false, detail: "no answer object was returned" } as const;

/** Every field the task's answer spec names is present with its declared type (the 40 of docs/SCORING.md "Weights"). */
export const answerFormat = defineCheck({
  description: "Every answer field is present with its declared type.",
  args: {},
  example: {},
  build: (_args, compile) => {
    if (compile.answerFields.size === 0)
      throw new CheckArgsError("check", "answerFormat needs the task to declare answer.fields");
    return {
      async evaluate(ctx) {
        if (!ctx.answer) return noAnswer;
        const problems: string[] = [];
        for (const [name, field] of Object.entries(ctx.spec.answer!.fields)) {
          if (field.optional && ctx.answer[name] === undefined) continue;
          const read = readAnswerField(ctx.answer[name], field.type);
          if ("error" in read) problems.push(`${name}: ${read.error}`);
        }
        return problems.length === 0
          ? { passed: true, detail: "every field present with its type" }
          : { passed: false, detail: problems.join("; ") };
      },
    };
  },
});

/**
 * One answer field equals the truth read from the chain: `expected` is evaluated at `pre` (atomic:
 * right after the module returned; composite: `init`, for "before" fields) or, with `at: "post"`,
 * at `post` (composite: `final`). An optional field left out passes; given, it must be exact.
 * Args: `{ field, expected, tolerance?, at? }`.
 */
export const answerEquals = defineCheck({
  description: 'One answer field equals the truth `expected` (read at pre, or at post with at: "post").',
  args: {
    field: { type: "string", description: "answer field name" },
    expected: { $ref: "#/definitions/expr", description: "the true value" },
    tolerance: {
      type: "string",
      pattern: "^(\\d+(\\.\\d{1,4})?%|\\d+)$",
      description: 'relative ("0.01%") or absolute raw units ("1000")',
    },
    at: { enum: ["pre", "post"], description: "when to read the truth (composite: init or final)" },
  },
  required: ["field", "expected"],
  example: { field: "balance_wei", expected: "balance(agent)" },
  build: (args, compile) => {
    if (args.at !== undefined && args.at !== "pre" && args.at !== "post")
      throw new CheckArgsError("at", 'must be "pre" (default) or "post"');
    const atPost = args.at === "post";
    const field = args.field;
    if (typeof field !== "string" || !compile.answerFields.has(field))
      throw new CheckArgsError("field", `must name a field of answer.fields, got ${JSON.stringify(field)}`);
    const expected = exprArg(args, "expected", compile);
    const tolerance = parseTolerance(args.tolerance);
    return {
      prepare: async (ctx) => (atPost ? undefined : evaluateExpr(expected, scopeOf(ctx))),
      async evaluate(ctx, prepared) {
        if (!ctx.answer) return noAnswer;
        if (ctx.spec.answer!.fields[field]!.optional && ctx.answer[field] === undefined)
          return { passed: true, detail: `${field}: optional and not given` };
        const truth = atPost ? await evaluateExpr(expected, scopeOf(ctx)) : prepared;
        const read = readAnswerField(ctx.answer[field], ctx.spec.answer!.fields[field]!.type);
        if ("error" in read) return { passed: false, detail: `${field}: ${read.error}` };
        const t = truth as bigint | string;
        return {
          passed: compareValues(read.value, "eq", t, tolerance),
          detail: describeComparison(field, read.value, "eq", t, tolerance),
        };
      },
    };
  },
});
