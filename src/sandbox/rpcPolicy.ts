import { INVALID_PARAMS, METHOD_NOT_FOUND } from "./jsonRpc.ts";

// The RPC guard's policy (docs/SECURITY.md, "RPC guard"): which JSON-RPC calls of the model's code
// are served, answered by the guard itself, signed, or refused, and which refusals are violations.
// Pure: no I/O, no state; the guard's server (rpcGuard.ts) counts calls and records violations.

/**
 * Read-only JSON-RPC methods the guard forwards to Anvil (docs/SECURITY.md, "RPC guard": every valid
 * way of reading counts). Spelled out, never a prefix: a prefix would also let through methods Anvil
 * may add later. `eth_fillTransaction` is here because Anvil answers it with an unsigned transaction
 * (r = s = 0; tests/guard.test.ts proves it) and viem's `prepareTransactionRequest` tries it first;
 * `eth_accounts` is answered by the guard itself (see {@link localAnswers}).
 */
export const allowedRpcMethods: ReadonlySet<string> = new Set([
  "eth_call",
  "eth_getBalance",
  "eth_getCode",
  "eth_getStorageAt",
  "eth_getProof",
  "eth_estimateGas",
  "eth_createAccessList",
  "eth_fillTransaction",
  "eth_simulateV1",
  "eth_blockNumber",
  "eth_chainId",
  "eth_syncing",
  "eth_gasPrice",
  "eth_blobBaseFee",
  "eth_feeHistory",
  "eth_maxPriorityFeePerGas",
  "eth_getTransactionCount",
  "eth_getLogs",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getBlockReceipts",
  "eth_getBlockTransactionCountByNumber",
  "eth_getBlockTransactionCountByHash",
  "eth_getUncleCountByBlockNumber",
  "eth_getUncleCountByBlockHash",
  "eth_getTransactionByHash",
  "eth_getTransactionByBlockHashAndIndex",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getTransactionReceipt",
  "eth_getRawTransactionByHash",
  "eth_protocolVersion",
  "net_version",
  "net_listening",
  "net_peerCount",
  "web3_clientVersion",
  "web3_sha3",
  "txpool_status",
  "txpool_inspect",
  "txpool_content",
  "debug_traceTransaction",
  "debug_traceCall",
]);

/**
 * Methods the guard answers itself. `eth_accounts`: Anvil would list its unlocked dev accounts,
 * which the model's code must not learn of (they can sign through `eth_sendTransaction`, itself a
 * violation); a keyless node answers `[]`, and that is what the model's code gets.
 */
const localAnswers: ReadonlyMap<string, unknown> = new Map([["eth_accounts", []]]);

/**
 * Prefixes and names of methods that change or fake chain state, or sign: calling one is an
 * integrity violation (score 0). `anvil_`/`evm_`/`hardhat_`/`ganache_`/`tenderly_` are the dev
 * nodes' cheat codes (set balance, impersonate, mine, snapshot, time travel); `eth_send*` send
 * transactions (the harness alone does); `eth_sign*` and `personal_` sign with the node's keys;
 * `miner_`/`admin_` steer the node; `debug_set*` rewinds the head. Everything else that is not
 * served is refused with a JSON-RPC error and no violation (an unknown method is not cheating).
 */
const CHEAT_PREFIXES = [
  "anvil_",
  "evm_",
  "hardhat_",
  "ganache_",
  "tenderly_",
  "eth_send",
  "eth_sign",
  "personal_",
  "miner_",
  "admin_",
  "debug_set",
] as const;

/** True when calling `method` is a violation (see {@link CHEAT_PREFIXES}). */
export function isCheatMethod(method: string): boolean {
  return CHEAT_PREFIXES.some((prefix) => method.startsWith(prefix));
}

/**
 * `debug_trace*` tracers whose output grows with the calls made, not with the opcodes run: the
 * default struct logger writes the stack (and memory) at every opcode, hundreds of MB for one
 * heavy call, so it is refused (no violation) and the refusal names these instead.
 */
const BOUNDED_TRACERS: ReadonlySet<string> = new Set(["callTracer", "prestateTracer", "4byteTracer"]);

const isOverride = (p: unknown) =>
  !(
    p === null ||
    p === undefined ||
    (typeof p === "object" && !Array.isArray(p) && Object.keys(p).length === 0)
  );

/**
 * `eth_call`, `eth_estimateGas` and `eth_createAccessList` take a state override set as their third
 * parameter (and Anvil a block override as the fourth); `debug_traceCall` takes `stateOverrides` /
 * `blockOverrides` in its options; `eth_simulateV1` per block state call. With any of them a module
 * could "read" balances it does not have. Null or an empty object overrides nothing and passes.
 */
function hasOverrides(method: string, rawParams: unknown): boolean {
  if (!Array.isArray(rawParams)) return false;
  const params = rawParams as unknown[];
  switch (method) {
    case "eth_call":
    case "eth_estimateGas":
    case "eth_createAccessList":
      return params.slice(2).some(isOverride);
    case "debug_traceCall": {
      const options = params[2] as Record<string, unknown> | null | undefined;
      return isOverride(options?.stateOverrides) || isOverride(options?.blockOverrides);
    }
    case "eth_simulateV1": {
      const calls = (params[0] as { blockStateCalls?: unknown } | null | undefined)?.blockStateCalls;
      return (
        Array.isArray(calls) &&
        calls.some(
          (b) =>
            isOverride((b as Record<string, unknown> | null)?.stateOverrides) ||
            isOverride((b as Record<string, unknown> | null)?.blockOverrides),
        )
      );
    }
    default:
      return false;
  }
}

/** The tracer a `debug_trace*` call names, or undefined for the default struct logger. */
function tracerOf(method: string, rawParams: unknown): unknown {
  const params = Array.isArray(rawParams) ? (rawParams as unknown[]) : [];
  const options = params[method === "debug_traceCall" ? 2 : 1];
  return (options as { tracer?: unknown } | null | undefined)?.tracer;
}

/** A refusal that is also an integrity violation (the attempt then scores 0). */
export type RpcPolicyViolation = "forbidden_rpc_method" | "forbidden_rpc_params";

/** What the guard does with one call. */
export type RpcDecision =
  /** A served read: forwarded to the chain node as it is. */
  | { decision: "forward" }
  /** Served by the guard itself with this result; the node is not asked. */
  | { decision: "answer"; result: unknown }
  /** `eth_signTypedData_v4` on a task that declares typed-data signing: the guard's signer decides. */
  | { decision: "sign" }
  /** Refused with this JSON-RPC error; recorded when `violation` is set. */
  | { decision: "refuse"; code: number; reason: string; violation?: RpcPolicyViolation };

/** Parameters of {@link rpcPolicy} that depend on the task. */
export type RpcPolicyOptions = {
  /**
   * Only for a task that declares `"wallet": { "signTypedData": true }`: the agent's address. Then
   * `eth_accounts` answers `[agent]` and `eth_signTypedData_v4` (EIP-712) goes to the signer.
   */
  typedDataAgent?: string | undefined;
};

/**
 * The guard's decision on one call of `method` with `params`. Three classes: served reads
 * ({@link allowedRpcMethods}, `eth_accounts` answered `[]`); cheating, state-changing or signing
 * methods ({@link isCheatMethod}) and reads with state or block overrides, refused (`-32601` /
 * `-32602`) as violations; and everything else (unknown methods, filters, subscriptions,
 * `debug_trace*` with the unbounded default tracer), refused (`-32601` / `-32602`) without one, so a
 * library probing for an optional method never costs the score. Error codes from EIP-1474.
 */
export function rpcPolicy(method: string, params: unknown, options: RpcPolicyOptions = {}): RpcDecision {
  const { typedDataAgent } = options;
  if (typedDataAgent !== undefined && method === "eth_signTypedData_v4") return { decision: "sign" };
  if (typedDataAgent !== undefined && method === "eth_accounts")
    return { decision: "answer", result: [typedDataAgent] };
  if (isCheatMethod(method))
    return {
      decision: "refuse",
      code: METHOD_NOT_FOUND,
      reason: `Method ${method} is not allowed in the benchmark sandbox.`,
      violation: "forbidden_rpc_method",
    };
  if (localAnswers.has(method)) return { decision: "answer", result: localAnswers.get(method) };
  if (!allowedRpcMethods.has(method))
    return {
      decision: "refuse",
      code: METHOD_NOT_FOUND,
      reason: `Method ${method} is not available in the benchmark sandbox.`,
    };
  if (method.startsWith("debug_trace") && !BOUNDED_TRACERS.has(tracerOf(method, params) as string))
    return {
      decision: "refuse",
      code: INVALID_PARAMS,
      reason: `${method} is served only with a bounded tracer (${[...BOUNDED_TRACERS].join(", ")}) in the benchmark sandbox.`,
    };
  if (hasOverrides(method, params))
    return {
      decision: "refuse",
      code: INVALID_PARAMS,
      reason: `${method} with state or block overrides is not allowed in the benchmark sandbox.`,
      violation: "forbidden_rpc_params",
    };
  return { decision: "forward" };
}
