import { Signature, SigningKey, TypedDataEncoder } from "ethers";
import { stringToHex } from "viem";
import type { World } from "../world/world.ts";
import { toUnits } from "./decimal.ts";
import { asBigInt, type ExprScope, type ParamValue, type Value } from "./expr.ts";

/** Functions every expression may use without the chain, with their arity. */
export const PURE_FUNCTIONS: Record<string, number> = {
  wei: 1, // wei("12.5") = 12.5 · 10^18: a token amount in 18-decimal base units
  units: 2, // units("12.5", 6) = 12.5 · 10^6
  min: 2,
  max: 2,
  utf8: 1, // hex of the UTF-8 bytes of a text
  lower: 1, // lower-case (addresses compared case-insensitively)
  ifElse: 3, // ifElse(c, a, b) = a if c ≠ 0, else b (e.g. pre-state steps that depend on a sampled count)
  // permitSignature(token, name, chainId, owner, spender, value, nonce, deadline): the 65-byte EIP-2612
  // Permit signature by `owner`, a fresh_account parameter (derived parameters only: the key never leaves the harness)
  permitSignature: 8,
  signaturePart: 2, // signaturePart(sig, "v" | "r" | "s"): v as an integer (27/28), r and s as 32-byte hex
};

/** EIP-2612's `Permit` struct type, as EIP-712 typed data lists it (EIP-2612 §"Specification"). */
export const PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
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

/**
 * Evaluates a pure function. `keys` (lower-case address → private key of a `fresh_account`) is given
 * only while derived parameters are computed, so only they can sign.
 */
export function callPure(name: string, args: Value[], keys?: ReadonlyMap<string, string>): Value {
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
    case "permitSignature": {
      const [token, tokenName, chainId, owner, spender, value, nonce, deadline] = args;
      const key = keys?.get(String(owner).toLowerCase());
      if (!key)
        throw new Error(
          `permitSignature: no key for ${owner} (a fresh_account parameter, in a derived parameter)`,
        );
      const domain = {
        name: String(tokenName),
        version: "1",
        chainId: asBigInt(chainId!, name),
        verifyingContract: String(token),
      };
      const message = {
        owner: String(owner),
        spender: String(spender),
        value: asBigInt(value!, name),
        nonce: asBigInt(nonce!, name),
        deadline: asBigInt(deadline!, name),
      };
      return new SigningKey(key).sign(TypedDataEncoder.hash(domain, PERMIT_TYPES, message)).serialized;
    }
    case "signaturePart": {
      const sig = Signature.from(String(args[0]));
      const part = String(args[1]);
      if (part === "v") return BigInt(sig.v);
      if (part === "r" || part === "s") return sig[part];
      throw new Error(`signaturePart: part must be "v", "r" or "s", got "${part}"`);
    }
    default:
      throw new Error(`unknown function '${name}'`);
  }
}

/**
 * A scope with parameters, world names and pure functions only (for derived parameters); `secrets`
 * (an instance's fresh_account keys) lets `permitSignature` sign for those accounts.
 */
export function pureScope(
  params: Record<string, ParamValue>,
  world: World,
  secrets: Record<string, string> = {},
): ExprScope {
  const keys = new Map(
    Object.entries(secrets).map(([param, key]) => [String(params[param]).toLowerCase(), key]),
  );
  return { ref: (path) => resolveRef(path, params, world), fn: (name, args) => callPure(name, args, keys) };
}
