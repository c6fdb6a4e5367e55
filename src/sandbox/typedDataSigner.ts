import { getAddress, type Hex, isAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  errorResponse,
  INVALID_PARAMS,
  type JsonRpcId,
  type JsonRpcResponse,
  UNAUTHORIZED,
} from "./jsonRpc.ts";

/** The typed data of an `eth_signTypedData_v4` call (EIP-712 §"Specification of the eth_signTypedData JSON RPC"). */
type TypedDataPayload = {
  types: Record<string, { name: string; type: string }[]>;
  domain: Record<string, unknown>;
  primaryType: string;
  message: Record<string, unknown>;
};

/** The agent's key and the one chain it signs for; held by the harness, never by the sandbox. */
export type TypedDataSignerKey = { privateKey: Hex; chainId: number };

/**
 * One EIP-712 signature the harness made for the agent: the typed data as signed (`types` without
 * `EIP712Domain`) and the 65-byte signature. The effect ledger reads every one of them: a permit or a
 * Permit2 signature is a grant (docs/SCORING.md "Effect ledger").
 */
export type SignedTypedData = {
  domain: Record<string, unknown>;
  primaryType: string;
  types: Record<string, { name: string; type: string }[]>;
  message: Record<string, unknown>;
  signature: Hex;
};

/**
 * Answers one `eth_signTypedData_v4` call (id, params); `agent` is the address it signs for, and
 * `signed` every signature it made, in order (appended as they are made).
 */
export type TypedDataSigner = ((id: JsonRpcId, params: unknown) => Promise<JsonRpcResponse>) & {
  agent: string;
  signed: SignedTypedData[];
};

const asChainId = (value: unknown): number | undefined => {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return Number(BigInt(value));
  return undefined;
};

/**
 * The guard's `eth_signTypedData_v4` for a task that declares typed-data signing (docs/SECURITY.md,
 * "RPC guard"): params are `[address, typedData]` (typedData a JSON string, as ethers' JsonRpcSigner
 * and viem's json-rpc account send it, or an object). It signs with the agent's key in this (the
 * harness) process, and only for the agent's address on a domain with chainId 56: another address is
 * refused (4100, EIP-1193) and reported through `recordForeignAddress` (`forbidden_rpc_params`:
 * asking the node to sign for an account that is not the agent's); a domain without chainId 56, or
 * malformed typed data, is refused (-32602) without a violation. Values may be decimal or hex strings
 * or numbers (EIP-712 JSON); ethers' TypedDataEncoder reads them all.
 */
export function typedDataSigning(
  signer: TypedDataSignerKey,
  recordForeignAddress: () => void,
): TypedDataSigner {
  const account = privateKeyToAccount(signer.privateKey);
  const signed: SignedTypedData[] = [];
  const refuse = (id: JsonRpcId, code: number, message: string): JsonRpcResponse =>
    errorResponse(id, code, `eth_signTypedData_v4: ${message}`);
  const sign = async (id: JsonRpcId, params: unknown): Promise<JsonRpcResponse> => {
    const [address, raw] = Array.isArray(params) ? (params as unknown[]) : [];
    if (typeof address !== "string" || !isAddress(address, { strict: false }))
      return refuse(id, INVALID_PARAMS, "the first parameter must be the signing address.");
    if (getAddress(address) !== account.address) {
      recordForeignAddress();
      return refuse(id, UNAUTHORIZED, "only the agent's address signs in the benchmark sandbox.");
    }
    let data: TypedDataPayload;
    try {
      data = (typeof raw === "string" ? JSON.parse(raw) : raw) as TypedDataPayload;
    } catch {
      return refuse(id, INVALID_PARAMS, "the typed data is not valid JSON.");
    }
    if (
      !data ||
      typeof data !== "object" ||
      typeof data.types !== "object" ||
      typeof data.domain !== "object" ||
      typeof data.primaryType !== "string" ||
      typeof data.message !== "object"
    )
      return refuse(id, INVALID_PARAMS, "typed data needs types, domain, primaryType and message.");
    if (asChainId(data.domain?.chainId) !== signer.chainId)
      return refuse(id, INVALID_PARAMS, `the domain's chainId must be ${signer.chainId}.`);
    const { EIP712Domain: _domainType, ...types } = data.types;
    try {
      // ethers v6 checks the message against the types and accepts decimal/hex strings and numbers.
      const { TypedDataEncoder, Wallet } = await import("ethers");
      if (TypedDataEncoder.getPrimaryType(types) !== data.primaryType)
        return refuse(id, INVALID_PARAMS, `primaryType ${data.primaryType} is not the root of types.`);
      const signature = (await new Wallet(signer.privateKey).signTypedData(
        data.domain as never,
        types,
        data.message,
      )) as Hex;
      signed.push({
        domain: data.domain,
        primaryType: data.primaryType,
        types,
        message: data.message,
        signature,
      });
      return { jsonrpc: "2.0", id, result: signature };
    } catch (error) {
      return refuse(
        id,
        INVALID_PARAMS,
        `cannot sign this typed data (${error instanceof Error ? error.message.split("\n")[0] : "invalid"}).`,
      );
    }
  };
  return Object.assign(sign, { agent: account.address, signed });
}
