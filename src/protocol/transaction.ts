import { Transaction } from "ethers";
import { getAddress, type Hex, isAddress, isHex } from "viem";
import { cleanText } from "../sandbox/cleanText.ts";
import type { SchemaInvalidReason } from "./parse.ts";

/** A transaction request as the harness will sign it; `from`, `nonce` and `chainId` are dropped. */
export type TransactionRequest = {
  to: `0x${string}`;
  data: Hex;
  value: bigint;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
};

type Normalised =
  | { ok: true; tx: TransactionRequest }
  | { ok: false; reason: SchemaInvalidReason; message: string };

/**
 * Reads a quantity as the SPEC allows: bigint, safe integer number, base-10 integer string or hex
 * string (wei for value, gas units for gas). Anything else (a decimal point, an exponent, a negative)
 * is not serialisable.
 */
export function toQuantity(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value >= 0n ? value : undefined;
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  if (typeof value === "string") {
    const s = value.trim();
    if (/^\d+$/.test(s)) return BigInt(s);
    if (/^0x[0-9a-fA-F]+$/.test(s)) return BigInt(s);
  }
  if (
    value &&
    typeof value === "object" &&
    "type" in value &&
    (value as { type: unknown }).type === "BigNumber" &&
    "hex" in value
  )
    return toQuantity((value as { hex: unknown }).hex);
  return undefined;
}

/**
 * A model-returned value as a short string for a failure reason: bigints as `123n` (also nested,
 * where JSON.stringify would throw), anything over 200 characters cut.
 */
function describeValue(value: unknown): string {
  let text: string;
  try {
    text =
      typeof value === "bigint"
        ? `${value}n`
        : (JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return cleanText(text, 200);
}

/**
 * Turns a module's return value into a transaction request, or a `schema_invalid` reason
 * (docs/SECURITY.md "Malformed model output and task specs"): not an object → not_transaction_like; no `to` → missing_to; a field that ethers
 * cannot serialise → not_serialisable. No other shape is special-cased.
 */
export function normaliseTransaction(value: unknown): Normalised {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return {
      ok: false,
      reason: "not_transaction_like",
      message: `executeSkill returned ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}, not a transaction object`,
    };
  const raw = value as Record<string, unknown>;
  if (raw.to === undefined || raw.to === null || raw.to === "")
    return {
      ok: false,
      reason: "missing_to",
      message: `the returned object has no 'to' (keys: ${Object.keys(raw).join(", ") || "none"})`,
    };
  const bad = (field: string, why: string): Normalised => ({
    ok: false,
    reason: "not_serialisable",
    message: `${field}: ${why}`,
  });
  if (typeof raw.to !== "string" || !isAddress(raw.to, { strict: false }))
    return bad("to", `${describeValue(raw.to)} is not an address`);
  const data = raw.data ?? raw.input ?? "0x";
  if (typeof data !== "string" || !isHex(data) || data.length % 2 !== 0)
    return bad("data", "must be a 0x-prefixed hex string of whole bytes");
  const tx: TransactionRequest = { to: getAddress(raw.to), data: data as Hex, value: 0n };
  const quantities: [keyof TransactionRequest, unknown][] = [
    ["value", raw.value],
    ["gas", raw.gasLimit ?? raw.gas],
    ["gasPrice", raw.gasPrice],
    ["maxFeePerGas", raw.maxFeePerGas],
    ["maxPriorityFeePerGas", raw.maxPriorityFeePerGas],
  ];
  for (const [field, v] of quantities) {
    if (v === undefined || v === null) continue;
    const q = toQuantity(v);
    if (q === undefined) return bad(field, `${describeValue(v)} is not a non-negative integer quantity`);
    (tx as Record<string, unknown>)[field] = q;
  }
  if (tx.gasPrice !== undefined && (tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined))
    return bad("gasPrice", "legacy gasPrice together with EIP-1559 fee fields");
  try {
    // ethers is the judge of "serialisable": it must build an unsigned transaction.
    Transaction.from({
      to: tx.to,
      data: tx.data,
      value: tx.value,
      gasLimit: tx.gas ?? 21_000n,
      chainId: 56n,
      ...(tx.gasPrice !== undefined
        ? { gasPrice: tx.gasPrice }
        : { maxFeePerGas: tx.maxFeePerGas ?? 0n, maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? 0n }),
    }).unsignedSerialized;
  } catch (error) {
    return bad("transaction", (error as Error).message.split("(")[0]!.trim());
  }
  return { ok: true, tx };
}
