import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One chat message as either wire format carries it (Anthropic's `system` is put first as a system message). */
export type WireMessage = { role: "system" | "user" | "assistant"; content: string };

/** A request the fake server received, normalised over both wire formats. */
export type FakeRequest = {
  api: "openai" | "anthropic";
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, any>;
  messages: WireMessage[];
  /** 1-based arrival number. */
  n: number;
  /** Milliseconds since the server started. */
  at: number;
  /** The status answered (set once the answer is sent; undefined while it hangs). */
  status?: number;
};

/** How the server answers one request. */
export type Behavior =
  | { kind: "answer"; text: string; finishReason?: string }
  /**
   * Tool calls (`tool_calls` / `tool_use` blocks). `arguments` is the JSON text of the call; for
   * Anthropic, whose `input` is always an object, text that is not a JSON object goes as `{ "_raw": text }`.
   */
  | { kind: "tools"; calls: { id: string; name: string; arguments: string }[]; text?: string }
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: "slow"; delayMs: number; next: Behavior }
  | { kind: "raw"; body: string; contentType?: string }
  | { kind: "hang" };

export type FakeProviderServer = {
  url: string;
  /** OpenAI-style base URL (`<url>/v1`). */
  openaiBaseURL: string;
  /** Anthropic-style base URL (the SDK appends `/v1/messages`). */
  anthropicBaseURL: string;
  requests: FakeRequest[];
  close(): Promise<void>;
};

const tokens = (s: string) => Math.ceil(s.length / 4);

function openaiBody(text: string, req: FakeRequest, finishReason = "stop") {
  const input = tokens(req.messages.map((m) => m.content).join(""));
  return {
    id: `chatcmpl-fake-${req.n}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model: req.body.model,
    choices: [
      { index: 0, message: { role: "assistant", content: text, refusal: null }, finish_reason: finishReason },
    ],
    usage: { prompt_tokens: input, completion_tokens: tokens(text), total_tokens: input + tokens(text) },
  };
}

function anthropicBody(text: string, req: FakeRequest, finishReason = "end_turn") {
  return {
    id: `msg_fake_${req.n}`,
    type: "message",
    role: "assistant",
    model: req.body.model,
    content: text ? [{ type: "text", text }] : [],
    stop_reason: finishReason,
    stop_sequence: null,
    usage: { input_tokens: tokens(req.messages.map((m) => m.content).join("")), output_tokens: tokens(text) },
  };
}

type ToolsBehavior = Extract<Behavior, { kind: "tools" }>;

function openaiTools(b: ToolsBehavior, req: FakeRequest) {
  const body = openaiBody(b.text ?? "", req, "tool_calls");
  body.choices[0]!.message = {
    role: "assistant",
    content: b.text ?? null,
    refusal: null,
    tool_calls: b.calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    })),
  } as never;
  return body;
}

function anthropicTools(b: ToolsBehavior, req: FakeRequest) {
  const input = (text: string) => {
    try {
      const v = JSON.parse(text) as unknown;
      return v && typeof v === "object" && !Array.isArray(v) ? v : { _raw: text };
    } catch {
      return { _raw: text };
    }
  };
  return {
    ...anthropicBody(b.text ?? "", req, "tool_use"),
    content: [
      ...(b.text ? [{ type: "text", text: b.text }] : []),
      ...b.calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: input(c.arguments) })),
    ],
  };
}

/**
 * A local stand-in for model providers (docs/ARCHITECTURE.md "Models": the provider layer is tested with the real SDKs
 * against a local fake server). It speaks OpenAI chat completions (`POST …/chat/completions`) and
 * Anthropic messages (`POST …/v1/messages`) on 127.0.0.1 at a free port, records every request, and
 * answers as `behave` says: a completion, an HTTP status (429 with Retry-After, 500 …), a slow
 * answer, a raw (malformed) body, or no answer at all.
 */
export async function startFakeProvider(
  behave: (req: FakeRequest) => Behavior | Promise<Behavior>,
): Promise<FakeProviderServer> {
  const requests: FakeRequest[] = [];
  const t0 = Date.now();
  const open = new Set<ServerResponse>();
  const server = createServer(async (request, response) => {
    open.add(response);
    response.on("close", () => open.delete(response));
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? "";
    const api = path.endsWith("/messages")
      ? "anthropic"
      : path.endsWith("/chat/completions")
        ? "openai"
        : null;
    if (request.method !== "POST" || !api) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `no route ${request.method} ${path}` } }));
      return;
    }
    let body: Record<string, any>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      response.writeHead(400).end();
      return;
    }
    const messages: WireMessage[] =
      api === "anthropic"
        ? [
            ...(body.system ? [{ role: "system" as const, content: String(body.system) }] : []),
            ...(body.messages as WireMessage[]),
          ]
        : (body.messages as WireMessage[]);
    const req: FakeRequest = {
      api,
      path,
      headers: request.headers,
      body,
      messages,
      n: requests.length + 1,
      at: Date.now() - t0,
    };
    requests.push(req);
    let behavior = await behave(req);
    while (behavior.kind === "slow") {
      const { delayMs, next } = behavior;
      await new Promise((r) => setTimeout(r, delayMs));
      if (response.destroyed) return;
      behavior = next;
    }
    if (behavior.kind === "hang") return;
    if (response.destroyed) return;
    if (behavior.kind === "tools") {
      req.status = 200;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify(api === "openai" ? openaiTools(behavior, req) : anthropicTools(behavior, req)),
      );
    } else if (behavior.kind === "answer") {
      req.status = 200;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify(
          api === "openai"
            ? openaiBody(behavior.text, req, behavior.finishReason)
            : anthropicBody(behavior.text, req, behavior.finishReason),
        ),
      );
    } else if (behavior.kind === "status") {
      req.status = behavior.status;
      response.writeHead(behavior.status, { "content-type": "application/json", ...behavior.headers });
      response.end(
        JSON.stringify(
          behavior.body ?? { error: { type: "fake_error", message: `fake ${behavior.status}` } },
        ),
      );
    } else {
      req.status = 200;
      response.writeHead(200, { "content-type": behavior.contentType ?? "application/json" });
      response.end(behavior.body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openaiBaseURL: `${url}/v1`,
    anthropicBaseURL: url,
    requests,
    async close() {
      for (const r of open) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
