// JSON-RPC 2.0 shapes and the error codes the RPC guard answers with (EIP-1474, EIP-1193).

export type JsonRpcId = string | number | null;
export type JsonRpcResponse = { jsonrpc: "2.0"; id: JsonRpcId; result?: unknown; error?: unknown };

/** EIP-1474 codes. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const LIMIT_EXCEEDED = -32005;
/** EIP-1193: the requested account or method has not been authorized. */
export const UNAUTHORIZED = 4100;

/** A JSON-RPC error response. */
export function errorResponse(id: JsonRpcId, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}
