import type { World } from "../world/world.ts";
import type { Instance, ParamValue } from "./types.ts";

// `{{name}}`, `{{token.symbol}}`, `{{contracts.usdt}}`; `{{name | grouped}}` shows a number with
// thousands separators (1000 → "1,000"), as a person writes an amount in prose.
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*(?:\|\s*(grouped)\s*)?\}\}/g;

/** `"10000.5"` → `"10,000.5"`. */
function grouped(text: string): string {
  const [whole, fraction] = text.split(".");
  const withCommas = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}

/** The placeholder names (`x`, `contracts.usdt`, `token.symbol`) a text uses. */
export function placeholderNames(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** Displays a parameter value as a person writes it: bigint in base 10, decimals as sampled. */
export function displayValue(value: ParamValue): string {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return value;
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
}

/**
 * Resolves one placeholder path against an instance: `x` (a parameter), `token.symbol` (a field of a
 * picked object), `contracts.<key>`, `agent`. Returns undefined when the path names nothing.
 */
export function resolvePlaceholder(
  path: string,
  params: Record<string, ParamValue>,
  world: Pick<World, "contracts" | "agent">,
): string | undefined {
  const [head, ...rest] = path.split(".");
  if (head === "agent" && rest.length === 0) return world.agent.address;
  if (head === "contracts" && rest.length === 1) return (world.contracts as Record<string, string>)[rest[0]!];
  const value = params[head!];
  if (value === undefined) return undefined;
  if (rest.length === 0) return displayValue(value);
  if (rest.length === 1 && typeof value === "object") {
    const field = value[rest[0]!];
    return field === undefined ? undefined : displayValue(field);
  }
  return undefined;
}

/**
 * Fills `{{param}}`, `{{param | grouped}}`, `{{contracts.<key>}}` and `{{agent}}` placeholders (the format of gold
 * responses and `scripted:` files: tasks/README.md "Placeholders in gold code", README "Scripted models"). An unknown placeholder throws: a spec or script that names
 * nothing is a harness fault, caught at load for specs.
 */
export function fillPlaceholders(
  text: string,
  instance: Pick<Instance, "params">,
  world: Pick<World, "contracts" | "agent">,
): string {
  return text.replace(PLACEHOLDER, (whole, path: string, format: string | undefined) => {
    const value = resolvePlaceholder(path, instance.params, world);
    if (value === undefined) throw new Error(`unknown placeholder ${whole}`);
    return format === "grouped" ? grouped(value) : value;
  });
}
