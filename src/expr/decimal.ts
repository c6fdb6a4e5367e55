/**
 * Exact decimal helpers (no floats): token amounts are decimal strings such as `"12.5"` in
 * prompts and integers in base units (wei = 10^-18) on chain.
 */

/** `toUnits("12.5", 18)` → `12500000000000000000n`. Throws if `value` has more than `decimals` places. */
export function toUnits(value: string, decimals: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) throw new Error(`"${value}" is not a decimal number`);
  const [, sign, whole, fraction = ""] = match;
  if (fraction.length > decimals) throw new Error(`"${value}" has more than ${decimals} decimal places`);
  const units = BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
  return sign === "-" ? -units : units;
}

/**
 * `formatUnits(12500000000000000000n, 18)` → `"12.5"`: as a person writes it, no trailing zeros,
 * never `"12.0"` or an exponent.
 */
export function formatUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const fraction = (abs % base).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}
