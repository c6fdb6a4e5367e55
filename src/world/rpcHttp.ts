import http from "node:http";
import https from "node:https";

/**
 * JSON-RPC over HTTP for the harness's own traffic (pool, RPC guard upstream, viem clients), on
 * Node's `http` module with keep-alive connections.
 *
 * Why not `fetch`: Node 20's fetch (undici with web streams, abort signals and a fresh connection
 * per request when the body is not drained in time) costs ~1.2–2.2 ms of CPU per JSON-RPC call to a
 * local Anvil on this machine, `http.request` over a kept-alive socket ~0.45 ms; a full run makes
 * tens of thousands of such calls (see `npm run bench`).
 */
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 256 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/** Answer of {@link postJson}: HTTP status, Content-Type and the body as text. */
export type PostJsonResult = { status: number; statusText: string; contentType: string; text: string };

/** {@link postJson}'s answer was larger than its `maxBytes`. */
export class ReplyTooLargeError extends Error {}

/**
 * POSTs `body` (already JSON) to `url` and reads the whole answer.
 * @param timeoutMs the request is destroyed after this many milliseconds without completing.
 * @param signal aborts the request (the promise rejects with the signal's reason).
 * @param maxBytes the request is destroyed once the answer's body passes this many bytes.
 * @throws {ReplyTooLargeError} past `maxBytes`; {Error} on connection errors, timeout or abort.
 */
export function postJson(
  url: string,
  body: string,
  timeoutMs: number,
  signal?: AbortSignal | null,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<PostJsonResult> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const client = target.protocol === "https:" ? https : http;
    const agent = agents[target.protocol as keyof typeof agents];
    if (!agent) return reject(new Error(`Unsupported protocol ${target.protocol} in ${target.origin}`));
    if (signal?.aborted) return reject(signal.reason);
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    };
    // Credentials in the URL (user:pass@host) become Basic auth, as fetch would not allow them.
    if (target.username || target.password)
      headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString("base64")}`;
    const request = client.request(
      target,
      { method: "POST", agent, headers, timeout: timeoutMs },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= maxBytes) return void chunks.push(chunk);
          chunks.length = 0;
          signal?.removeEventListener("abort", onAbort);
          reject(new ReplyTooLargeError(`answer larger than ${maxBytes} bytes`));
          request.destroy();
        });
        response.on("error", reject);
        response.on("end", () => {
          signal?.removeEventListener("abort", onAbort);
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? "",
            contentType: String(response.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    const onAbort = () => request.destroy(signal?.reason ?? new Error("aborted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("timeout", () =>
      request.destroy(new Error(`No answer from ${target.host} within ${timeoutMs} ms`)),
    );
    request.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    request.end(body);
  });
}

/**
 * A `fetch` for viem's `http` transport (`http(url, { fetchFn: keepAliveFetch })`): POST only,
 * answered with the few Response members viem reads (`ok`, `status`, `statusText`, `headers.get`,
 * `text`, `json`; no body stream).
 */
export const keepAliveFetch = (async (input: string | URL | Request, init?: RequestInit) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const result = await postJson(url, String(init?.body ?? ""), 60_000, init?.signal);
  const headers = new Headers({ "content-type": result.contentType });
  return {
    ok: result.status >= 200 && result.status < 300,
    status: result.status,
    statusText: result.statusText,
    headers,
    body: null,
    text: async () => result.text,
    json: async () => JSON.parse(result.text),
  } as unknown as Response;
}) as typeof fetch;
