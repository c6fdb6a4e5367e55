/** Longest `$bigint` revived, in digits (a uint256 has at most 78). */
export const MAX_BIGINT_DIGITS = 1_000;
const BIGINT = new RegExp(`^-?\\d{1,${MAX_BIGINT_DIGITS}}$`);

/**
 * `JSON.parse` reviver for values sent by the sandboxed child (`childRunner.mjs`): turns
 * `{"$bigint":"123"}` back into `123n` and `{"$bytes":"0x01ff"}` into a `Uint8Array`, so a
 * transaction such as `{ to, data, value: 10n ** 18n }` arrives with `value` as a bigint, as if the
 * module had run in-process (the paper's setting).
 *
 * A returned plain object whose only key is `$bigint` or `$bytes` with a well-formed string would be
 * revived too; no transaction or answer format uses such keys. A `$bigint` of more than
 * {@link MAX_BIGINT_DIGITS} digits stays an object (which no format accepts): `BigInt()` of a
 * million digits costs the harness ~1 s, and a uint256 has 78.
 *
 * @example
 * JSON.parse('{"value":{"$bigint":"1000000000000000000"}}', reviveValue); // { value: 10n ** 18n }
 */
export function reviveValue(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.length !== 1) return value;
  const tagged = value as { $bigint?: unknown; $bytes?: unknown };
  if (typeof tagged.$bigint === "string" && BIGINT.test(tagged.$bigint)) return BigInt(tagged.$bigint);
  if (typeof tagged.$bytes === "string" && /^0x([0-9a-f]{2})*$/.test(tagged.$bytes)) {
    return new Uint8Array(Buffer.from(tagged.$bytes.slice(2), "hex"));
  }
  return value;
}
