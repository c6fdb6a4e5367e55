import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { anthropicAdapter } from "../src/models/adapters/anthropic.ts";
import { openaiAdapter } from "../src/models/adapters/openai.ts";
import type { Adapter, AdapterParameters } from "../src/models/adapters/types.ts";
import { ProviderCallError } from "../src/models/errors.ts";
import type { ChatMessage, SamplingSettings } from "../src/models/types.ts";
import {
  type Behavior,
  type FakeProviderServer,
  type FakeRequest,
  startFakeProvider,
} from "./providers/fakeServer.ts";

// The contract every model adapter meets (STYLE.md: the same suite against every backend), run
// with the real SDKs against the local fake provider. Each test scripts the server's answers.
let script: (req: FakeRequest) => Behavior = () => ({ kind: "answer", text: "ok" });
let server: FakeProviderServer;
beforeAll(async () => {
  server = await startFakeProvider((req) => script(req));
});
afterAll(async () => {
  await server?.close();
});

const messages: ChatMessage[] = [
  { role: "system", content: "You write TypeScript." },
  { role: "user", content: "Send 1 BNB." },
  { role: "assistant", content: "```ts\nexport async function executeSkill() {}\n```" },
  { role: "user", content: "Round 2." },
];
const sampling: SamplingSettings = { temperature: 0.7, maxTokens: 1234, seed: 42 };

const adapters: [string, (p: Omit<AdapterParameters, "baseURL">) => Adapter, () => string][] = [
  ["openai", (p) => openaiAdapter({ ...p, baseURL: server.openaiBaseURL }), () => "/v1/chat/completions"],
  ["anthropic", (p) => anthropicAdapter({ ...p, baseURL: server.anthropicBaseURL }), () => "/v1/messages"],
];

/** Runs `fn` with the server answering from `behaviors` in turn (the last one repeats). */
async function scripted<T>(
  behaviors: Behavior[],
  fn: () => Promise<T>,
): Promise<{ value: T; reqs: FakeRequest[] }> {
  const first = server.requests.length;
  let i = 0;
  script = () => behaviors[Math.min(i++, behaviors.length - 1)]!;
  const value = await fn();
  return { value, reqs: server.requests.slice(first) };
}
async function failure(fn: () => Promise<unknown>): Promise<ProviderCallError> {
  const error = await fn().then(
    () => undefined,
    (e) => e,
  );
  expect(error).toBeInstanceOf(ProviderCallError);
  return error as ProviderCallError;
}

describe.each(adapters)("%s adapter", (api, make, path) => {
  const adapter = (over: Partial<AdapterParameters> = {}) =>
    make({ apiKey: "sk-test", model: "fake-model", maxRetries: 2, timeoutMs: 5000, seed: true, ...over });
  const answer = (text: string): Behavior => ({ kind: "answer", text });

  test("returns the completion text and token counts, with the conversation and sampling settings on the wire", async () => {
    const { value, reqs } = await scripted([answer("```ts\ncode\n```")], () =>
      adapter().generate(messages, sampling),
    );
    expect(value.text).toBe("```ts\ncode\n```");
    expect(value.usage.inputTokens).toBeGreaterThan(0);
    expect(value.usage.outputTokens).toBe(Math.ceil(value.text.length / 4));
    expect(value.finishReason).toBe(api === "openai" ? "stop" : "end_turn");
    expect(reqs).toHaveLength(1);
    const [req] = reqs;
    expect(req!.path).toBe(path());
    expect(req!.messages).toEqual(messages);
    expect(req!.body.model).toBe("fake-model");
    expect(req!.body.temperature).toBe(0.7);
    if (api === "openai") {
      expect(req!.headers.authorization).toBe("Bearer sk-test");
      expect(req!.body.max_tokens).toBe(1234);
      expect(req!.body.seed).toBe(42);
    } else {
      // SDK 1.x sends the key as a bearer token; older ones as x-api-key.
      expect(req!.headers["x-api-key"] ?? req!.headers.authorization).toMatch(/^(Bearer )?sk-test$/);
      expect(req!.body.system).toBe("You write TypeScript.");
      expect(req!.body.max_tokens).toBe(1234);
      expect(req!.body.seed).toBeUndefined();
    }
  });

  test("sends no temperature when it is null, and no seed when the provider takes none", async () => {
    const { reqs } = await scripted([answer("x")], () =>
      adapter({ seed: false }).generate(messages, { temperature: null, maxTokens: 10, seed: 7 }),
    );
    expect(reqs[0]!.body).not.toHaveProperty("temperature");
    expect(reqs[0]!.body).not.toHaveProperty("seed");
  });

  test("waits as long as Retry-After says after a 429, then succeeds", async () => {
    const { value, reqs } = await scripted(
      [{ kind: "status", status: 429, headers: { "retry-after": "1" } }, answer("after 429")],
      () => adapter().generate(messages, sampling),
    );
    expect(value.text).toBe("after 429");
    expect(reqs.map((r) => r.status)).toEqual([429, 200]);
    expect(reqs[1]!.at - reqs[0]!.at).toBeGreaterThanOrEqual(950);
  });

  test("retries 500s with exponential backoff and succeeds", async () => {
    const { value, reqs } = await scripted(
      [{ kind: "status", status: 500 }, { kind: "status", status: 503 }, answer("after 5xx")],
      () => adapter().generate(messages, sampling),
    );
    expect(value.text).toBe("after 5xx");
    expect(reqs.map((r) => r.status)).toEqual([500, 503, 200]);
    // 0.5 s then 1 s, each less up to 25 % jitter.
    expect(reqs[1]!.at - reqs[0]!.at).toBeGreaterThanOrEqual(350);
    expect(reqs[2]!.at - reqs[1]!.at).toBeGreaterThanOrEqual(700);
  });

  test("gives up after maxRetries with a server_error provider error", async () => {
    const first = server.requests.length;
    script = () => ({ kind: "status", status: 500 });
    const error = await failure(() => adapter({ maxRetries: 1 }).generate(messages, sampling));
    expect(error.code).toBe("server_error");
    expect(error.status).toBe(500);
    expect(server.requests.length - first).toBe(2);
  });

  test("does not retry a 401 and names the status", async () => {
    const first = server.requests.length;
    script = () => ({ kind: "status", status: 401 });
    const error = await failure(() => adapter().generate(messages, sampling));
    expect(error.code).toBe("auth");
    expect(error.shortMessage).toMatch(/^fake-model at http:\/\/127\.0\.0\.1:\d+\S*: HTTP 401/);
    expect(server.requests.length - first).toBe(1);
  });

  test("times out a slow response and retries it", async () => {
    const { value, reqs } = await scripted(
      [{ kind: "slow", delayMs: 2000, next: answer("too late") }, answer("in time")],
      () => adapter({ timeoutMs: 300 }).generate(messages, sampling),
    );
    expect(value.text).toBe("in time");
    expect(reqs).toHaveLength(2);
  });

  test("a response slower than the timeout on every try is a timeout provider error", async () => {
    script = () => ({ kind: "slow", delayMs: 1500, next: answer("too late") });
    const error = await failure(() =>
      adapter({ timeoutMs: 200, maxRetries: 1 }).generate(messages, sampling),
    );
    expect(error.code).toBe("timeout");
  });

  test("an empty completion is the model's answer: empty text, no error", async () => {
    const { value } = await scripted([answer("")], () => adapter().generate(messages, sampling));
    expect(value.text).toBe("");
  });

  test.each([
    ["a body that is not JSON", { kind: "raw", body: "{not json" } as Behavior],
    [
      "JSON without a completion",
      { kind: "raw", body: '{"error":{"message":"upstream went away"}}' } as Behavior,
    ],
    ["an empty body", { kind: "raw", body: "" } as Behavior],
  ])("%s is a retryable malformed_completion provider error", async (_name, behavior) => {
    script = () => behavior;
    const error = await failure(() => adapter().generate(messages, sampling));
    expect(error.code).toBe("malformed_completion");
    expect(error.retryable).toBe(true);
  });
});
