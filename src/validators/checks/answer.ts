import type { Value } from "../../expr/expr.ts";
import type { AnswerFieldType } from "../../tasks/types.ts";

/**
 * Reads one answer field by its declared type (docs/TASKS.md "Transaction and query tasks"):
 * `wei` — base-10 integer string, bigint, or safe JSON integer (hex, decimal points, exponents and
 * token units are type errors); `int` — safe integer as number or base-10 string; `addr` — 0x + 40 hex;
 * `str` — any string, compared exactly.
 * @returns the value, or an `error` saying why the field has the wrong type.
 */
export function readAnswerField(value: unknown, type: AnswerFieldType): { value: Value } | { error: string } {
  switch (type) {
    case "wei":
      if (typeof value === "bigint" && value >= 0n) return { value };
      if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0)
        return { value: BigInt(value) };
      if (typeof value === "string" && /^\d+$/.test(value)) return { value: BigInt(value) };
      return { error: `expected a wei amount as a base-10 integer string, got ${describe(value)}` };
    case "int":
      if (
        typeof value === "bigint" &&
        value <= BigInt(Number.MAX_SAFE_INTEGER) &&
        value >= -BigInt(Number.MAX_SAFE_INTEGER)
      )
        return { value };
      if (typeof value === "number" && Number.isSafeInteger(value)) return { value: BigInt(value) };
      if (typeof value === "string" && /^-?\d+$/.test(value) && Number.isSafeInteger(Number(value)))
        return { value: BigInt(value) };
      return { error: `expected an integer, got ${describe(value)}` };
    case "addr":
      if (typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value)) return { value };
      return { error: `expected a 0x-prefixed 20-byte address, got ${describe(value)}` };
    case "str":
      if (typeof value === "string") return { value };
      return { error: `expected a string, got ${describe(value)}` };
  }
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "bigint") return `${value}n`;
  const text = JSON.stringify(value);
  return `${typeof value} ${text && text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
}
