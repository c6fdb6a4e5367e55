import type { Writable } from "node:stream";
import { postJson } from "../world/rpcHttp.ts";
import { type GuardRequest, type GuardResponse, localGuardHandler } from "./rpcGuard.ts";

// The harness's side of the child's RPC bridge (docs/SECURITY.md, "RPC bridge"): the child's
// runner sends each `fetch` to `providerUrl` as a `{type:"rpc"}` line on fd 3, and gets the answer
// back as a `{type:"rpc"}` line on its stdin.

/** Answers the child has not read yet, in bytes, beyond which further answers are dropped (the request then times out). */
const MAX_UNREAD_ANSWER_BYTES = 64 * 2 ** 20;
/** Bridged requests answered per execution before the channel refuses (the guard's own flood limit is 2,000 calls). */
const MAX_BRIDGED_REQUESTS = 10_000;
/**
 * Bridged requests of one child the harness works on at once. The child's runner queues its own
 * beyond this (child/rpcChannel.mjs), so a library never meets the refusal; one past it reaches the
 * harness only from model code writing fd 3 itself, and is refused at once (see {@link rpcBridge}).
 * With the guard's `maxReplyBytes` (32 MiB) it bounds the answers the harness holds for one child.
 */
export const MAX_RPC_IN_FLIGHT = 8;
/**
 * Bytes of answers one execution may draw over the bridge (bodies summed, JSON-RPC errors
 * included): past it the execution is ended as `memory_limit` (exitClassification.ts). An honest
 * module draws kilobytes; every answer passes through the harness's memory.
 */
export const MAX_REPLY_BYTES_PER_EXECUTION = 64 * 2 ** 20;
/** JSON-RPC 2.0 "Limit exceeded" (EIP-1474's -32005). */
const LIMIT_EXCEEDED = -32005;

/**
 * How a bridged request reaches its guard: in-process when this process opened the guard, else
 * over HTTP from the harness (a `providerUrl` served elsewhere, e.g. a test's server).
 */
function rpcRoute(providerUrl: string): (request: GuardRequest) => Promise<GuardResponse> {
  const local = localGuardHandler(providerUrl);
  if (local) return local;
  const origin = new URL(providerUrl).origin;
  return async ({ path, body }): Promise<GuardResponse> => {
    try {
      const target = new URL(path, origin);
      if (target.origin !== origin) return { status: 404, headers: {}, body: "" };
      const answer = await postJson(String(target), body, 30_000);
      return { status: answer.status, headers: { "content-type": answer.contentType }, body: answer.text };
    } catch {
      return { status: 502, headers: {}, body: "" };
    }
  };
}

/** A child's `{type:"rpc"}` line, checked field by field: only strings of bounded size pass. */
function bridgedRequest(message: Record<string, unknown>): (GuardRequest & { id: number }) | undefined {
  const { id, method, path, body } = message;
  if (!Number.isSafeInteger(id) || typeof method !== "string" || typeof path !== "string") return undefined;
  if (typeof body !== "string" || method.length > 16 || path.length > 4_096) return undefined;
  // A path, never an authority: "@host/" after the origin would name another server.
  if (!path.startsWith("/") || path.startsWith("//")) return undefined;
  return { id: id as number, method, path, body };
}

/**
 * The bridge of one execution (docs/SECURITY.md, "RPC bridge"): hands each of the child's
 * `{type:"rpc"}` messages to the guard behind `providerUrl` and writes the answer to the child's
 * stdin, unless the execution is `over()` by then. Malformed requests and those past
 * {@link MAX_BRIDGED_REQUESTS} get no answer. A request while {@link MAX_RPC_IN_FLIGHT} of this
 * child's are being answered is refused at once: HTTP 429 with a JSON-RPC error -32005 (id null).
 * Once the answers' bodies sum past {@link MAX_REPLY_BYTES_PER_EXECUTION} bytes, no further answer
 * is written and `exhausted()` is called (once): the caller ends the execution.
 * @throws {TypeError} when `providerUrl` is no open guard of this process and not a URL.
 */
export function rpcBridge(
  providerUrl: string,
  stdin: Writable | null,
  over: () => boolean,
  exhausted: () => void,
): (message: Record<string, unknown>) => void {
  const route = rpcRoute(providerUrl);
  let bridged = 0;
  let inFlight = 0;
  let replyBytes = 0;
  const write = (id: number, answer: GuardResponse) => {
    // A module that stops reading its answers must not grow the harness's memory.
    if (over() || (stdin?.writableLength ?? 0) > MAX_UNREAD_ANSWER_BYTES) return;
    stdin?.write(`${JSON.stringify({ type: "rpc", id, ...answer })}\n`);
  };
  return (message) => {
    const request = bridgedRequest(message);
    if (!request || ++bridged > MAX_BRIDGED_REQUESTS) return;
    if (inFlight >= MAX_RPC_IN_FLIGHT) {
      const error = {
        code: LIMIT_EXCEEDED,
        message: `More than ${MAX_RPC_IN_FLIGHT} requests in flight; wait for an answer before sending more.`,
      };
      return write(request.id, {
        status: 429,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: null, error }),
      });
    }
    inFlight++;
    void route(request).then((answer) => {
      inFlight--;
      if (replyBytes > MAX_REPLY_BYTES_PER_EXECUTION) return;
      replyBytes += Buffer.byteLength(answer.body);
      if (replyBytes > MAX_REPLY_BYTES_PER_EXECUTION) return exhausted();
      write(request.id, answer);
    });
  };
}
