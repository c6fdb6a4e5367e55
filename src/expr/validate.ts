import { CONTRACT_KEYS } from "../world/world.ts";

const KEYS: ReadonlySet<string> = new Set(CONTRACT_KEYS);

import { type Expr, exprNames, parseExpr } from "./expr.ts";

const GLOBAL_NAMES = new Set(["agent", "rich", "treasury", "MAX_UINT256"]);

/**
 * Parses an expression from a spec and checks every name it uses: parameters, `contracts.<key>`
 * (one of the 29 keys), `world.<constant>`, globals, and functions with the right arity.
 * @returns the parsed expression.
 * @throws Error with a message naming the unknown name (the caller adds file and field).
 */
export function compileExpr(
  source: unknown,
  parameterNames: ReadonlySet<string>,
  functions: Record<string, number>,
): Expr {
  if (typeof source !== "string" || source.trim() === "")
    throw new Error("must be a non-empty expression string");
  const expr = parseExpr(source);
  const { refs, calls } = exprNames(expr);
  for (const path of refs) {
    const [head, ...rest] = path;
    if (head === "contracts") {
      if (rest.length !== 1 || !KEYS.has(rest[0]!))
        throw new Error(`unknown contract key '${path.join(".")}'`);
    } else if (head === "world") {
      if (rest.length !== 1) throw new Error(`'${path.join(".")}' should be world.<constant>`);
    } else if (!(GLOBAL_NAMES.has(head!) && rest.length === 0) && !parameterNames.has(head!)) {
      throw new Error(
        `unknown name '${path.join(".")}' (not a parameter, contracts.<key>, world.<constant> or global)`,
      );
    }
  }
  for (const call of calls) {
    const arity = functions[call.name];
    if (arity === undefined) throw new Error(`unknown function '${call.name}'`);
    if (arity >= 0 && arity !== call.arity)
      throw new Error(`function '${call.name}' takes ${arity} argument(s), got ${call.arity}`);
  }
  return expr;
}
