/**
 * A tiny, safe expression language for task specs (no `eval`): expected values of checks,
 * pre-state amounts and answer truths are written as expressions such as
 * `wei(x)`, `-wei(x)`, `tokenBalance(contracts.usdt, agent) * p / 100`,
 * `call(contracts.simple_counter, 'getCounter()(uint256)') + 1` (strings in single or double quotes;
 * `0x…` hex literals and decimal literals such as `0.5` are string values).
 *
 * Values are `bigint` (all integer arithmetic; `/` is floor division toward zero like Solidity)
 * or `string` (addresses, hex data, text). Decimal parameters (`"12.5"`) must be converted with
 * `wei(x)` or `units(x, d)` before arithmetic, so a unit mistake fails at load, not at run time.
 */

export type Expr =
  | { kind: "num"; value: bigint }
  | { kind: "str"; value: string }
  | { kind: "ref"; path: string[] }
  | { kind: "neg"; arg: Expr }
  | { kind: "bin"; op: "+" | "-" | "*" | "/"; left: Expr; right: Expr }
  | { kind: "call"; name: string; args: Expr[] };

export type Value = bigint | string;

type Token = { t: "num" | "str" | "id" | "op"; v: string; at: number };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // A hex literal (an address, calldata) is a string value: `0x0000…0000`.
    const hex = /^0x[0-9a-fA-F]*/.exec(source.slice(i));
    if (hex) {
      tokens.push({ t: "str", v: hex[0], at: i });
      i += hex[0].length;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < source.length && /[0-9_]/.test(source[j]!)) j++;
      // A decimal literal (`0.5`) is a decimal string, like a decimal parameter: `wei(0.5)`.
      const fraction = /^\.[0-9]+/.exec(source.slice(j));
      if (fraction) {
        tokens.push({ t: "str", v: source.slice(i, j + fraction[0].length).replaceAll("_", ""), at: i });
        i = j + fraction[0].length;
        continue;
      }
      tokens.push({ t: "num", v: source.slice(i, j).replaceAll("_", ""), at: i });
      i = j;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i;
      while (j < source.length && /[A-Za-z0-9_$]/.test(source[j]!)) j++;
      tokens.push({ t: "id", v: source.slice(i, j), at: i });
      i = j;
      continue;
    }
    // Single quotes let a JSON task file write a string without escapes: `call(a, 'name()(string)')`.
    if (c === '"' || c === "'") {
      const j = source.indexOf(c, i + 1);
      if (j < 0) throw new ExprSyntaxError(`unterminated string at ${i}`);
      tokens.push({ t: "str", v: source.slice(i + 1, j), at: i });
      i = j + 1;
      continue;
    }
    if ("+-*/(),.".includes(c)) {
      tokens.push({ t: "op", v: c, at: i });
      i++;
      continue;
    }
    throw new ExprSyntaxError(`unexpected character '${c}' at ${i}`);
  }
  return tokens;
}

export class ExprSyntaxError extends Error {
  override name = "ExprSyntaxError";
}

/** Parses an expression; throws {@link ExprSyntaxError} with the position of the problem. */
export function parseExpr(source: string): Expr {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos];
  const expectOp = (v: string) => {
    const tok = tokens[pos];
    if (tok?.t !== "op" || tok.v !== v)
      throw new ExprSyntaxError(`expected '${v}' at ${tok ? tok.at : "end"} in "${source}"`);
    pos++;
  };
  const parseSum = (): Expr => {
    let left = parseProduct();
    for (let tok = peek(); tok && tok.t === "op" && (tok.v === "+" || tok.v === "-"); tok = peek()) {
      pos++;
      left = { kind: "bin", op: tok.v as "+" | "-", left, right: parseProduct() };
    }
    return left;
  };
  const parseProduct = (): Expr => {
    let left = parseUnary();
    for (let tok = peek(); tok && tok.t === "op" && (tok.v === "*" || tok.v === "/"); tok = peek()) {
      pos++;
      left = { kind: "bin", op: tok.v as "*" | "/", left, right: parseUnary() };
    }
    return left;
  };
  const parseUnary = (): Expr => {
    const tok = peek();
    if (tok && tok.t === "op" && tok.v === "-") {
      pos++;
      return { kind: "neg", arg: parseUnary() };
    }
    return parsePrimary();
  };
  const parsePrimary = (): Expr => {
    const tok = tokens[pos++];
    if (!tok) throw new ExprSyntaxError(`unexpected end of "${source}"`);
    if (tok.t === "num") return { kind: "num", value: BigInt(tok.v) };
    if (tok.t === "str") return { kind: "str", value: tok.v };
    if (tok.t === "op" && tok.v === "(") {
      const inner = parseSum();
      expectOp(")");
      return inner;
    }
    if (tok.t === "id") {
      const next = peek();
      if (next && next.t === "op" && next.v === "(") {
        pos++;
        const args: Expr[] = [];
        const close = peek();
        if (!(close && close.t === "op" && close.v === ")")) {
          args.push(parseSum());
          for (let sep = peek(); sep && sep.t === "op" && sep.v === ","; sep = peek()) {
            pos++;
            args.push(parseSum());
          }
        }
        expectOp(")");
        return { kind: "call", name: tok.v, args };
      }
      const path = [tok.v];
      for (let dot = peek(); dot && dot.t === "op" && dot.v === "."; dot = peek()) {
        pos++;
        const part = tokens[pos++];
        if (part?.t !== "id") throw new ExprSyntaxError(`expected a name after '.' in "${source}"`);
        path.push(part.v);
      }
      return { kind: "ref", path };
    }
    throw new ExprSyntaxError(`unexpected '${tok.v}' at ${tok.at} in "${source}"`);
  };
  const expr = parseSum();
  if (pos !== tokens.length) throw new ExprSyntaxError(`unexpected '${tokens[pos]!.v}' in "${source}"`);
  return expr;
}

/** Every reference path (`x`, `contracts.usdt`) and function name used by an expression. */
export function exprNames(expr: Expr): { refs: string[][]; calls: { name: string; arity: number }[] } {
  const refs: string[][] = [];
  const calls: { name: string; arity: number }[] = [];
  const walk = (e: Expr): void => {
    if (e.kind === "ref") refs.push(e.path);
    else if (e.kind === "neg") walk(e.arg);
    else if (e.kind === "bin") {
      walk(e.left);
      walk(e.right);
    } else if (e.kind === "call") {
      calls.push({ name: e.name, arity: e.args.length });
      e.args.forEach(walk);
    }
  };
  walk(expr);
  return { refs, calls };
}

/** Resolves references and functions while evaluating. Functions may read the chain (async). */
export type ExprScope = {
  ref(path: string[]): Value;
  fn(name: string, args: Value[]): Value | Promise<Value>;
};

/** Evaluates an expression; throws on type errors (e.g. arithmetic on an address). */
export async function evaluateExpr(expr: Expr, scope: ExprScope): Promise<Value> {
  switch (expr.kind) {
    case "num":
      return expr.value;
    case "str":
      return expr.value;
    case "ref":
      return scope.ref(expr.path);
    case "neg":
      return -asBigInt(await evaluateExpr(expr.arg, scope), "-");
    case "bin": {
      const left = asBigInt(await evaluateExpr(expr.left, scope), expr.op);
      const right = asBigInt(await evaluateExpr(expr.right, scope), expr.op);
      if (expr.op === "+") return left + right;
      if (expr.op === "-") return left - right;
      if (expr.op === "*") return left * right;
      if (right === 0n) throw new Error("division by zero");
      return left / right;
    }
    case "call": {
      const args: Value[] = [];
      for (const arg of expr.args) args.push(await evaluateExpr(arg, scope));
      return scope.fn(expr.name, args);
    }
  }
}

/** Narrows a value to bigint; a base-10 integer string is accepted. */
export function asBigInt(value: Value, where: string): bigint {
  if (typeof value === "bigint") return value;
  if (/^-?\d+$/.test(value)) return BigInt(value);
  throw new Error(`'${where}' needs an integer, got "${value}"`);
}

/** Formats an expression back to text (for check details). */
export function formatExpr(expr: Expr): string {
  switch (expr.kind) {
    case "num":
      return expr.value.toString();
    case "str":
      return JSON.stringify(expr.value);
    case "ref":
      return expr.path.join(".");
    case "neg":
      return `-${formatExpr(expr.arg)}`;
    case "bin":
      return `(${formatExpr(expr.left)} ${expr.op} ${formatExpr(expr.right)})`;
    case "call":
      return `${expr.name}(${expr.args.map(formatExpr).join(", ")})`;
  }
}

/**
 * A parameter's value: decimal amounts stay strings as sampled (`"12.5"`, token units), integers are
 * bigint, addresses are EIP-55 strings, a pick of objects is an object of such values.
 */
export type ParamValue = string | bigint | { [field: string]: string | bigint };
