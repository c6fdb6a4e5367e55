import { parseAbiItem } from "viem";
import { ALL_FUNCTIONS } from "../expr/chainScope.ts";
import type { Expr } from "../expr/expr.ts";
import { compileExpr } from "../expr/validate.ts";
import type { ActionSpec } from "./types.ts";

/** Arguments (expressions) each pre-state action takes; `?` marks optional ones. */
const ACTION_ARGS: Record<string, string[]> = {
  setNativeBalance: ["account", "amount"],
  setTokenBalance: ["token", "account", "amount"],
  transferToken: ["token", "from", "to", "amount"],
  approve: ["token", "owner", "spender", "amount"],
  send: ["from", "to", "function?", "args?", "value?"],
  setStorage: ["address", "slot", "value"],
  mine: ["blocks"],
  increaseTime: ["seconds"],
  setNonce: ["account", "nonce"],
  setNextBaseFee: ["wei"],
};

export type CompiledAction = {
  action: string;
  exprs: Record<string, Expr>;
  callArgs: Expr[];
  fn?: ReturnType<typeof parseAbiItem>;
};

/**
 * Validates and compiles one pre-state action (tasks/README.md "Pre-state actions").
 * @throws Error `"<field>: <problem>"` (the loader adds the file and index).
 */
export function compileAction(spec: ActionSpec, parameterNames: ReadonlySet<string>): CompiledAction {
  const fields = ACTION_ARGS[spec.action];
  if (!fields) throw new Error(`action: unknown action '${spec.action}'`);
  const names = fields.map((f) => f.replace("?", ""));
  for (const key of Object.keys(spec))
    if (key !== "action" && !names.includes(key))
      throw new Error(`${key}: unknown argument of ${spec.action}`);
  const exprs: Record<string, Expr> = {};
  let fn: CompiledAction["fn"];
  let callArgs: Expr[] = [];
  for (const field of fields) {
    const name = field.replace("?", "");
    const value = spec[name];
    if (value === undefined) {
      if (field.endsWith("?")) continue;
      throw new Error(`${name}: missing`);
    }
    if (name === "function") {
      try {
        fn = parseAbiItem(String(value));
      } catch (error) {
        throw new Error(`function: ${(error as Error).message.split("\n")[0]}`);
      }
      continue;
    }
    if (name === "args") {
      if (!Array.isArray(value)) throw new Error("args: must be a list of expressions");
      callArgs = value.map((v, i) => {
        try {
          return compileExpr(v, parameterNames, ALL_FUNCTIONS);
        } catch (error) {
          throw new Error(`args[${i}]: ${(error as Error).message}`);
        }
      });
      continue;
    }
    try {
      exprs[name] = compileExpr(value, parameterNames, ALL_FUNCTIONS);
    } catch (error) {
      throw new Error(`${name}: ${(error as Error).message}`);
    }
  }
  return { action: spec.action, exprs, callArgs, ...(fn ? { fn } : {}) };
}
