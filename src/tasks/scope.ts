import { stringToHex } from "viem";
import type { World } from "../world/world.ts";
import { toUnits } from "./decimal.ts";
import { asBigInt, type ExprScope, type Value } from "./expr.ts";
import type { ParamValue } from "./types.ts";

/** Functions every expression may use without the chain, with their arity. */
export const PURE_FUNCTIONS: Record<string, number> = {
  wei: 1, // wei("12.5") = 12.5 · 10^18: a token amount in 18-decimal base units
  units: 2, // units("12.5", 6) = 12.5 · 10^6
  min: 2,
  max: 2,
  utf8: 1, // hex of the UTF-8 bytes of a text
  lower: 1, // lower-case (addresses compared case-insensitively)
  ifElse: 3, // ifElse(c, a, b) = a if c ≠ 0, else b (e.g. pre-state steps that depend on a sampled count)
};

export const MAX_UINT256 = 2n ** 256n - 1n;

/** Resolves `agent`, `rich`, `treasury`, `contracts.<key>`, `world.<constant>`, `MAX_UINT256` and parameters. */
export function resolveRef(path: string[], params: Record<string, ParamValue>, world: World): Value {
  const [head, ...rest] = path;
  const fail = (): never => {
    throw new Error(`unknown name '${path.join(".")}'`);
  };
  if (rest.length === 0) {
    if (head === "agent") return world.agent.address;
    if (head === "rich") return world.rich.address;
    if (head === "treasury") return world.treasury.address;
    if (head === "MAX_UINT256") return MAX_UINT256;
  }
  if (head === "contracts" && rest.length === 1)
    return (world.contracts as Record<string, string>)[rest[0]!] ?? fail();
  if (head === "world" && rest.length === 1) {
    // The snapshot's head block: e.g. a permit deadline "instance start + 3,600 s".
    if (rest[0] === "snapshotTimestamp") return BigInt(world.snapshot.timestamp);
    if (rest[0] === "snapshotBlock") return BigInt(world.snapshot.blockNumber);
    const constants = world.constants as unknown as Record<string, unknown>;
    const value = constants[rest[0]!];
    if (typeof value === "number") return BigInt(value);
    if (typeof value === "string") return value;
    return fail();
  }
  const value = params[head!];
  if (value === undefined) return fail();
  if (rest.length === 0) {
    if (typeof value === "object") fail();
    return value as Value;
  }
  if (rest.length === 1 && typeof value === "object") return value[rest[0]!] ?? fail();
  return fail();
}

export function callPure(name: string, args: Value[]): Value {
  switch (name) {
    case "wei":
      return toUnits(String(args[0]), 18);
    case "units":
      return toUnits(String(args[0]), Number(asBigInt(args[1]!, "units")));
    case "min": {
      const [a, b] = [asBigInt(args[0]!, "min"), asBigInt(args[1]!, "min")];
      return b < a ? b : a;
    }
    case "max": {
      const [a, b] = [asBigInt(args[0]!, "max"), asBigInt(args[1]!, "max")];
      return b > a ? b : a;
    }
    case "utf8":
      return stringToHex(String(args[0]));
    case "lower":
      return String(args[0]).toLowerCase();
    case "ifElse":
      return asBigInt(args[0]!, "ifElse") !== 0n ? args[1]! : args[2]!;
    default:
      throw new Error(`unknown function '${name}'`);
  }
}

/** A scope with parameters, world names and pure functions only (for derived parameters). */
export function pureScope(params: Record<string, ParamValue>, world: World): ExprScope {
  return { ref: (path) => resolveRef(path, params, world), fn: callPure };
}
