import { ALL_FUNCTIONS } from "../expr/chainScope.ts";
import type { Expr } from "../expr/expr.ts";
import { compileExpr } from "../expr/validate.ts";
import { CheckArgsError, type CheckCompileContext } from "./types.ts";

/** Compiles the expression in `args[field]`, or throws {@link CheckArgsError} naming the field. */
export function exprArg(args: Record<string, unknown>, field: string, compile: CheckCompileContext): Expr {
  try {
    return compileExpr(args[field], compile.parameterNames, ALL_FUNCTIONS);
  } catch (error) {
    throw new CheckArgsError(field, (error as Error).message);
  }
}

export function optionalExprArg(
  args: Record<string, unknown>,
  field: string,
  compile: CheckCompileContext,
): Expr | undefined {
  return args[field] === undefined ? undefined : exprArg(args, field, compile);
}

/** Rejects argument names the factory does not know (a typo must fail at load, not pass silently). */
export function allowOnly(args: Record<string, unknown>, fields: string[]): void {
  for (const key of Object.keys(args))
    if (!fields.includes(key))
      throw new CheckArgsError(key, `unknown argument (allowed: ${fields.join(", ")})`);
}
