import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SandboxError } from "../errors.ts";
import { postJson, ReplyTooLargeError } from "../world/rpcHttp.ts";
import {
  errorResponse,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  type JsonRpcId,
  type JsonRpcResponse,
  LIMIT_EXCEEDED,
  PARSE_ERROR,
} from "./jsonRpc.ts";
import { GUARD_HOST } from "./networkBarrier.ts";
import { rpcPolicy } from "./rpcPolicy.ts";
import { type SignedTypedData, type TypedDataSignerKey, typedDataSigning } from "./typedDataSigner.ts";

// The RPC guard's server: HTTP (and the sandbox's pipe) in, batches forwarded to the chain node.
// Which calls pass is decided by the pure policy (rpcPolicy.ts); typed-data signing for the tasks
// that declare it is typedDataSigner.ts. The policy's method lists are re-exported here, where the
// guard's callers have always found them.
export { allowedRpcMethods, isCheatMethod } from "./rpcPolicy.ts";

/**
 * Something the model's code tried that could change or fake chain state, recorded on the attempt;
 * an attempt with any violation scores 0 (docs/SECURITY.md, "RPC guard").
 */
export type IntegrityViolation = {
  /**
   * `forbidden_rpc_method`: a state-changing, cheating or signing method ({@link isCheatMethod});
   * `forbidden_rpc_params`: a served read with state or block overrides;
   * `rpc_flood`: more calls than `maxRequests` (recorded once).
   */
  kind: "forbidden_rpc_method" | "forbidden_rpc_params" | "rpc_flood";
  /** The JSON-RPC method named in the refused call (`""` when it named none). */
  method: string;
  /** Milliseconds since the guard started. */
  at: number;
};

/** Parameters of {@link startRpcGuard}. */
export type StartRpcGuardParameters = {
  /** Anvil's JSON-RPC URL; never revealed to clients of the guard. */
  upstreamUrl: string;
  /** JSON-RPC calls (batch elements count one each) answered before refusing all. Default 2000. */
  maxRequests?: number | undefined;
  /** Largest HTTP request body in bytes. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /**
   * Largest answer read from the chain node for one request (a batch counts once), in bytes; a
   * larger one is dropped while it streams and the calls answer −32603. Default 32 MiB: an
   * `eth_call` of creation code can return megabytes, and a batch of them would otherwise all be
   * held in the harness's memory.
   */
  maxReplyBytes?: number | undefined;
  /**
   * Only for a task that declares `"wallet": { "signTypedData": true }`: the agent's key, kept in
   * the harness process (it never reaches the sandbox). With it the guard answers
   * `eth_accounts` with `[agent]` and signs `eth_signTypedData_v4` (EIP-712) for the agent on a
   * chain-56 domain; every other signing method stays a violation.
   */
  typedDataSigner?: TypedDataSignerKey | undefined;
};

/** One HTTP request to a guard, as carried over the sandbox's pipe (see childRunner.mjs). */
export type GuardRequest = { method: string; path: string; body: string };
/** The guard's HTTP answer: status, headers and body text. */
export type GuardResponse = { status: number; headers: Record<string, string>; body: string };

/** A running guard. */
export type RpcGuard = {
  /**
   * `http://127.0.0.2:<port>/<secret>` on Linux (see GUARD_HOST): the `providerUrl` handed to the
   * model. The secret (128 random bits) is this execution's: a request to any other path gets 404
   * and is not recorded, so no module can get another execution's attempt flagged.
   */
  url: string;
  /** Answers one request exactly as the HTTP listener would (the sandbox's pipe uses this). */
  handle(request: GuardRequest): Promise<GuardResponse>;
  /** Violations so far, in order; the array is appended to as they happen. */
  violations: IntegrityViolation[];
  /** JSON-RPC calls received so far (allowed or not; each batch element counts). */
  requestCount(): number;
  /** Every EIP-712 signature the guard made for the agent, in order (empty without `typedDataSigner`). */
  signatures: SignedTypedData[];
  /** Stops listening and drops open connections; safe to call twice. */
  close(): Promise<void>;
};

export type StartRpcGuardReturnType = RpcGuard;

type Call = { id?: JsonRpcId; method?: unknown; params?: unknown };

const UPSTREAM_TIMEOUT_MS = 30_000;

/** Guards of this process by URL: a sandboxed child's requests reach them over its pipe, not TCP. */
const localGuards = new Map<string, RpcGuard["handle"]>();

/**
 * The in-process handler of the open guard whose `url` is `providerUrl`, or undefined when none
 * (the URL belongs to another server: the sandbox then forwards over HTTP from the harness).
 */
export function localGuardHandler(providerUrl: string): RpcGuard["handle"] | undefined {
  return localGuards.get(providerUrl);
}

/**
 * Starts an HTTP JSON-RPC proxy on {@link GUARD_HOST} (127.0.0.2 on Linux; random port) in front of Anvil that forwards only
 * read methods, so the model's code can inspect the chain but never change it or fake it. Methods
 * fall in three classes, decided by {@link rpcPolicy}: served reads ({@link allowedRpcMethods}, `eth_accounts`
 * answered `[]`); cheating, state-changing or signing methods ({@link isCheatMethod}) and reads
 * with state or block overrides, refused (`-32601` / `-32602`) AND recorded in `violations`; and
 * everything else (unknown methods, filters, subscriptions, `debug_trace*` with the unbounded
 * default tracer), refused with `-32601` / `-32602` and not recorded, so a library probing for an
 * optional method never costs the score. Past the request limit calls get `-32005` (recorded once).
 * In a batch, the allowed elements are still forwarded and answered. Malformed JSON gets `-32700`; GET and other verbs get HTTP 405.
 * Upstream failures answer `-32603` without naming the upstream.
 *
 * Source: docs/SECURITY.md, "RPC guard"; error codes from EIP-1474; batches per JSON-RPC 2.0 §6.
 *
 * @throws {SandboxError} when the guard cannot listen.
 * @example
 * import { startRpcGuard } from "./rpcGuard.ts";
 * const guard = await startRpcGuard({ upstreamUrl: anvil.url });
 * await executeModule({ source, providerUrl: guard.url, agentAddress, deployedContracts });
 * if (guard.violations.length > 0) { ... score 0 ... }
 * await guard.close();
 */
export async function startRpcGuard(parameters: StartRpcGuardParameters): Promise<RpcGuard> {
  const maxRequests = parameters.maxRequests ?? 2000;
  const maxBodyBytes = parameters.maxBodyBytes ?? 1024 * 1024;
  const maxReplyBytes = parameters.maxReplyBytes ?? 32 * 2 ** 20;
  const upstream = new URL(parameters.upstreamUrl);
  const started = performance.now();
  const violations: IntegrityViolation[] = [];
  let calls = 0;
  let flooded = false;

  const record = (kind: IntegrityViolation["kind"], method: unknown) => {
    violations.push({
      kind,
      method: typeof method === "string" ? method : "",
      at: Math.round(performance.now() - started),
    });
  };

  const signTypedData = parameters.typedDataSigner
    ? typedDataSigning(parameters.typedDataSigner, () =>
        record("forbidden_rpc_params", "eth_signTypedData_v4"),
      )
    : undefined;

  /** Decides one call: a response to send now, or `"forward"` (a signature is answered later). */
  const screen = (call: unknown): JsonRpcResponse | Promise<JsonRpcResponse> | "forward" => {
    calls += 1;
    const id = (call as Call | null)?.id ?? null;
    const validId = id === null || typeof id === "string" || typeof id === "number";
    if (call === null || typeof call !== "object" || Array.isArray(call) || !validId) {
      return errorResponse(null, INVALID_REQUEST, "Invalid JSON-RPC request.");
    }
    const { method } = call as Call;
    if (calls > maxRequests) {
      if (!flooded) record("rpc_flood", method);
      flooded = true;
      return errorResponse(
        id,
        LIMIT_EXCEEDED,
        `Request limit of ${maxRequests} calls exceeded in the benchmark sandbox.`,
      );
    }
    if (typeof method !== "string")
      return errorResponse(id, INVALID_REQUEST, "Invalid JSON-RPC request: no method.");
    const verdict = rpcPolicy(method, (call as Call).params, { typedDataAgent: signTypedData?.agent });
    switch (verdict.decision) {
      case "sign":
        return signTypedData!(id, (call as Call).params);
      case "answer":
        return { jsonrpc: "2.0", id, result: verdict.result };
      case "refuse":
        if (verdict.violation) record(verdict.violation, method);
        return errorResponse(id, verdict.code, verdict.reason);
      case "forward":
        return "forward";
    }
  };

  /** Sends the allowed calls to Anvil as one batch under fresh ids and maps the answers back. */
  const forward = async (batch: Call[]): Promise<JsonRpcResponse[]> => {
    const body = batch.map((call, index) => ({
      jsonrpc: "2.0",
      id: index,
      method: call.method,
      params: call.params ?? [],
    }));
    let answers: JsonRpcResponse[];
    try {
      const response = await postJson(
        String(upstream),
        JSON.stringify(body),
        UPSTREAM_TIMEOUT_MS,
        undefined,
        maxReplyBytes,
      );
      const parsed = JSON.parse(response.text) as unknown;
      if (!Array.isArray(parsed)) throw new Error("upstream did not answer a batch with an array");
      answers = parsed as JsonRpcResponse[];
    } catch (error) {
      // The cause would name the upstream; the model only learns that the node failed.
      const message =
        error instanceof ReplyTooLargeError
          ? `The chain node's answer is larger than ${maxReplyBytes} bytes.`
          : "The chain node is unavailable.";
      return batch.map((call) => errorResponse(call.id ?? null, INTERNAL_ERROR, message));
    }
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    return batch.map((call, index) => {
      const answer = byId.get(index);
      if (!answer) return errorResponse(call.id ?? null, INTERNAL_ERROR, "The chain node gave no answer.");
      const out: JsonRpcResponse = { jsonrpc: "2.0", id: call.id ?? null };
      if ("error" in answer) out.error = answer.error;
      else out.result = answer.result;
      return out;
    });
  };

  /** Answers a parsed body: one call or a batch. `undefined` means "no content" (only notifications). */
  const answer = async (payload: unknown): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> => {
    const isBatch = Array.isArray(payload);
    const items: unknown[] = isBatch ? payload : [payload];
    if (isBatch && items.length === 0) return errorResponse(null, INVALID_REQUEST, "Empty batch.");
    const responses: (JsonRpcResponse | undefined)[] = new Array(items.length);
    const toForward: { index: number; call: Call }[] = [];
    const signing: Promise<void>[] = [];
    items.forEach((item, index) => {
      const decision = screen(item);
      if (decision === "forward") toForward.push({ index, call: item as Call });
      else if (decision instanceof Promise)
        signing.push(
          decision.then((signed) => {
            responses[index] = signed;
          }),
        );
      else responses[index] = decision;
    });
    await Promise.all(signing);
    if (toForward.length > 0) {
      const forwarded = await forward(toForward.map((entry) => entry.call));
      toForward.forEach((entry, k) => {
        responses[entry.index] = forwarded[k];
      });
    }
    // JSON-RPC 2.0: notifications (no `id` member) get no response.
    const kept = responses.filter((_, index) => {
      const item = items[index];
      return !(item !== null && typeof item === "object" && !Array.isArray(item) && !("id" in item));
    }) as JsonRpcResponse[];
    if (kept.length === 0) return undefined;
    return isBatch ? kept : kept[0];
  };

  const secretPath = `/${randomBytes(16).toString("hex")}`;
  const respond = (status: number, body?: unknown, headers: Record<string, string> = {}): GuardResponse => {
    // Belt and braces: nothing the node says may reveal where it listens.
    const text = body === undefined ? "" : JSON.stringify(body).replaceAll(upstream.host, "chain-node");
    return {
      status,
      headers: { ...(text ? { "content-type": "application/json" } : {}), ...headers },
      body: text,
    };
  };

  /** Everything after the body has arrived: path, verb, size, then the JSON-RPC payload. */
  const handle = async ({ method, path, body }: GuardRequest): Promise<GuardResponse> => {
    // Not this execution's secret: someone else's guess. Not a call, so never a violation.
    if (path !== secretPath) return respond(404);
    if (method !== "POST")
      return respond(405, errorResponse(null, INVALID_REQUEST, "Use POST for JSON-RPC."), { allow: "POST" });
    if (Buffer.byteLength(body) > maxBodyBytes)
      return respond(
        413,
        errorResponse(null, INVALID_REQUEST, `Request body larger than ${maxBodyBytes} bytes.`),
      );
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      return respond(200, errorResponse(null, PARSE_ERROR, "Parse error."));
    }
    try {
      const answered = await answer(payload);
      return answered === undefined ? respond(204) : respond(200, answered);
    } catch {
      return respond(200, errorResponse(null, INTERNAL_ERROR, "Internal error."));
    }
  };

  const server = http.createServer((request, response) => {
    const reply = (answer: GuardResponse) => {
      if (response.headersSent) return;
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    };
    const path = request.url ?? "";
    if (path !== secretPath || request.method !== "POST") {
      request.resume();
      return void handle({ method: request.method ?? "", path, body: "" }).then(reply);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > maxBodyBytes) {
        tooLarge = true;
        reply(
          respond(
            413,
            errorResponse(null, INVALID_REQUEST, `Request body larger than ${maxBodyBytes} bytes.`),
            {
              connection: "close",
            },
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      if (tooLarge) return;
      void handle({ method: "POST", path, body: Buffer.concat(chunks).toString("utf8") }).then(reply);
    });
    request.on("error", () => response.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(new SandboxError("The RPC guard cannot listen.", { cause: error })),
    );
    server.listen(0, GUARD_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  const url = `http://${GUARD_HOST}:${port}${secretPath}`;
  localGuards.set(url, handle);
  return {
    url,
    handle,
    violations,
    requestCount: () => calls,
    signatures: signTypedData?.signed ?? [],
    close() {
      localGuards.delete(url);
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
