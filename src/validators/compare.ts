import type { Value } from "../expr/expr.ts";
import { CheckArgsError } from "./types.ts";

export type CompareOp = "eq" | "gte" | "lte" | "gt" | "lt";
/** A relative tolerance in parts per million (task files write "0.01%" = 100 ppm). */
export type Tolerance = { ppm: bigint } | { abs: bigint } | undefined;

/** Parses `"0.01%"` (relative) or `"1000"` (absolute, raw units); validated at load. */
export function parseTolerance(value: unknown, field = "tolerance"): Tolerance {
  if (value === undefined) return undefined;
  if (typeof value !== "string")
    throw new CheckArgsError(field, 'must be a string such as "0.01%" or "1000"');
  const pct = /^(\d+(?:\.\d{1,4})?)%$/.exec(value);
  if (pct) {
    const [whole, frac = ""] = pct[1]!.split(".");
    return { ppm: BigInt(whole!) * 10_000n + BigInt(frac.padEnd(4, "0")) };
  }
  if (/^\d+$/.test(value)) return { abs: BigInt(value) };
  throw new CheckArgsError(field, `"${value}" is neither a percentage nor an integer`);
}

export function parseOp(value: unknown, field = "op"): CompareOp {
  if (value === undefined) return "eq";
  if (value === "eq" || value === "gte" || value === "lte" || value === "gt" || value === "lt") return value;
  throw new CheckArgsError(field, `must be one of eq, gte, lte, gt, lt; got ${JSON.stringify(value)}`);
}

const isAddress = (v: string) => /^0x[0-9a-fA-F]{40}$/.test(v);

/**
 * Compares an observed value with an expected one. Addresses compare case-insensitively, other text
 * exactly; integers with the operator and an optional tolerance around `expected`.
 */
export function compareValues(actual: Value, op: CompareOp, expected: Value, tolerance: Tolerance): boolean {
  if (typeof actual === "string" || typeof expected === "string") {
    const [a, e] = [String(actual), String(expected)];
    if (op !== "eq") return false;
    return isAddress(a) && isAddress(e) ? a.toLowerCase() === e.toLowerCase() : a === e;
  }
  const slack =
    tolerance === undefined
      ? 0n
      : "abs" in tolerance
        ? tolerance.abs
        : ((expected < 0n ? -expected : expected) * tolerance.ppm) / 1_000_000n;
  switch (op) {
    case "eq":
      return actual >= expected - slack && actual <= expected + slack;
    case "gte":
      return actual >= expected - slack;
    case "lte":
      return actual <= expected + slack;
    case "gt":
      return actual > expected - slack;
    case "lt":
      return actual < expected + slack;
  }
}

const OP_TEXT: Record<CompareOp, string> = { eq: "=", gte: "≥", lte: "≤", gt: ">", lt: "<" };

export function describeComparison(
  what: string,
  actual: Value,
  op: CompareOp,
  expected: Value,
  tolerance: Tolerance,
) {
  const tol =
    tolerance === undefined
      ? ""
      : "abs" in tolerance
        ? ` ±${tolerance.abs}`
        : ` ±${Number(tolerance.ppm) / 10_000}%`;
  return `${what}: expected ${OP_TEXT[op]} ${expected}${tol}, actual ${actual}`;
}
