import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createBudget } from "../src/models/budget.ts";
import { cacheKey, createResponseCache } from "../src/models/cache.ts";
import { ProviderCallError } from "../src/models/errors.ts";
import { providerModel } from "../src/models/providerModel.ts";
import { resolveModelName } from "../src/models/registry.ts";
import { modelSettings } from "../src/models/settings.ts";
import type { ModelRequest, SamplingSettings } from "../src/models/types.ts";
import { addUsage, costOf, estimateAttemptUsage, sumUsage } from "../src/models/usage.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";
import {
  type Behavior,
  type FakeProviderServer,
  type FakeRequest,
  startFakeProvider,
} from "./providers/fakeServer.ts";

const run = promisify(execFile);

let script: (req: FakeRequest) => Behavior | Promise<Behavior> = () => ({ kind: "answer", text: "ok" });
let server: FakeProviderServer;
let inFlight = 0;
let maxInFlight = 0;
beforeAll(async () => {
  server = await startFakeProvider(async (req) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await script(req);
    } finally {
      inFlight--;
    }
  });
});
afterAll(async () => {
  await server?.close();
});

const tmp = () => mkdtempSync(path.join(tmpdir(), "qb-models-"));
const request = (content: string, epoch = 0) =>
  ({
    messages: [
      { role: "system", content: "sys" },
      { role: "user", content },
    ],
    instance: { epoch },
    spec: { id: "t" },
    step: "atomic",
  }) as unknown as ModelRequest;

/** claude-sonnet-4.5 (priced 3 / 15 USD per million tokens, takes a temperature) pointed at the fake server. */
function sonnet(over: Parameters<typeof modelSettings>[0] = {}, extraEnv: NodeJS.ProcessEnv = {}) {
  const env = { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: server.anthropicBaseURL, ...extraEnv };
  return providerModel(
    resolveModelName("claude-sonnet-4.5", env),
    { ...modelSettings({ cacheDir: tmp(), ...over }, env), malformedRetryDelayMs: 20 },
    env,
  );
}

describe("provider model", () => {
  test("prices each call from the registry and keeps running totals", async () => {
    script = () => ({ kind: "answer", text: "x".repeat(400) });
    const model = sonnet();
    const response = await model.generate(request("y".repeat(396)));
    expect(response.usage).toEqual({ inputTokens: 100, outputTokens: 100 });
    expect(response.costUsd).toBeCloseTo((100 * 3 + 100 * 15) / 1e6, 12);
    expect(response.cached).toBe(false);
    expect(model.stats!()).toEqual({
      calls: 1,
      cachedCalls: 0,
      inputTokens: 100,
      outputTokens: 100,
      spentUsd: 0.0018,
    });
  });

  test("answers a repeated call from the cache without a request; epoch and sampling are part of the key", async () => {
    script = (req) => ({ kind: "answer", text: `answer ${req.n}` });
    const cacheDir = tmp();
    const model = sonnet({ cacheDir });
    const first = server.requests.length;
    const a = await model.generate(request("same"));
    const b = await model.generate(request("same"));
    expect(b).toMatchObject({ text: a.text, cached: true, usage: a.usage, costUsd: a.costUsd });
    expect(server.requests.length - first).toBe(1);
    // Another process, same cache directory: still a hit.
    expect((await sonnet({ cacheDir }).generate(request("same"))).text).toBe(a.text);
    expect(server.requests.length - first).toBe(1);
    await model.generate(request("same", 1));
    await sonnet({ cacheDir, temperature: 0.2 }).generate(request("same"));
    expect(server.requests.length - first).toBe(3);
    expect(model.stats!()).toMatchObject({ calls: 3, cachedCalls: 1 });
    expect(model.stats!().spentUsd).toBeCloseTo(2 * a.costUsd!, 12);
  });

  test("--cache off neither reads nor writes; --cache replay fails on a miss without a request", async () => {
    script = () => ({ kind: "answer", text: "fresh" });
    const cacheDir = tmp();
    const first = server.requests.length;
    await sonnet({ cacheDir, cache: "off" }).generate(request("q"));
    await sonnet({ cacheDir, cache: "off" }).generate(request("q"));
    expect(server.requests.length - first).toBe(2);
    expect(readdirSync(cacheDir)).toEqual([]);
    const error = await sonnet({ cacheDir, cache: "replay" })
      .generate(request("q"))
      .catch((e) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error.code).toBe("cache_miss");
    expect(server.requests.length - first).toBe(2);
    await sonnet({ cacheDir }).generate(request("q"));
    expect(
      await sonnet({ cacheDir, cache: "replay" }, { ANTHROPIC_API_KEY: "" }).generate(request("q")),
    ).toMatchObject({
      text: "fresh",
      cached: true,
    });
  });

  test("retries a malformed answer, then succeeds; gives up with malformed_completion after two retries", async () => {
    let n = 0;
    script = () => (n++ === 0 ? { kind: "raw", body: "{}" } : { kind: "answer", text: "good" });
    expect((await sonnet().generate(request("m1"))).text).toBe("good");
    expect(n).toBe(2);
    const first = server.requests.length;
    script = () => ({ kind: "raw", body: "<html>bad gateway</html>", contentType: "text/html" });
    const error = await sonnet()
      .generate(request("m2"))
      .catch((e) => e);
    expect(error.code).toBe("malformed_completion");
    expect(server.requests.length - first).toBe(3);
  });

  test("holds requests to one provider to its concurrency cap", async () => {
    script = async () => {
      await new Promise((r) => setTimeout(r, 100));
      return { kind: "answer", text: "slow" };
    };
    maxInFlight = 0;
    const model = sonnet({ cache: "off" });
    await Promise.all(Array.from({ length: 20 }, (_, i) => model.generate(request(`c${i}`))));
    expect(maxInFlight).toBe(resolveModelName("claude-sonnet-4.5", {}).concurrency);
  });

  const slowBurst = async (model: ReturnType<typeof providerModel>, prefix: string, count: number) => {
    script = async () => {
      await new Promise((r) => setTimeout(r, 100));
      return { kind: "answer", text: "slow" };
    };
    maxInFlight = 0;
    await Promise.all(Array.from({ length: count }, (_, i) => model.generate(request(`${prefix}${i}`))));
    return maxInFlight;
  };

  test("the third identical 404 stops the run: one fatal error, and no later call reaches the provider", async () => {
    const notFound: Behavior = {
      kind: "status",
      status: 404,
      body: { type: "error", error: { type: "not_found_error", message: "model: claude-sonnet-4-5" } },
    };
    script = () => notFound;
    const model = sonnet({ cache: "off" });
    const first = server.requests.length;
    const errors: ProviderCallError[] = [];
    for (let i = 0; i < 5; i++) errors.push(await model.generate(request(`nf${i}`)).catch((e) => e));
    expect(errors.map((e) => e.code)).toEqual([
      "bad_request",
      "bad_request",
      "run_stopped",
      "run_stopped",
      "run_stopped",
    ]);
    // The Anthropic SDK does not retry a 404: three calls, three requests, then none.
    expect(server.requests.length - first).toBe(3);
    expect(model.stopped!()).toBe(errors[2]);
    expect(errors[2]!.message).not.toContain("\n");
    expect(errors[2]!.message).toMatch(
      /^run stopped after 3 identical answers \(claude-sonnet-4-5 at .*: HTTP 404: .*not_found_error.*\); no further instance is started/,
    );
  });

  test("the OpenAI SDK's 404 trips the breaker the same way", async () => {
    script = () => ({
      kind: "status",
      status: 404,
      body: { error: { message: "The model `deepseek-chat` does not exist", type: "invalid_request_error" } },
    });
    const env = { DEEPSEEK_API_KEY: "k", DEEPSEEK_BASE_URL: server.openaiBaseURL };
    const model = providerModel(
      resolveModelName("deepseek:deepseek-chat", env),
      modelSettings({ cacheDir: tmp(), cache: "off" }, env),
      env,
    );
    const first = server.requests.length;
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) codes.push((await model.generate(request(`oa${i}`)).catch((e) => e)).code);
    expect(codes).toEqual(["bad_request", "bad_request", "run_stopped", "run_stopped"]);
    expect(server.requests.length - first).toBe(3);
  });

  test("different 4xx answers, 429s and 5xx never stop a run", async () => {
    let n = 0;
    script = () => ({ kind: "status", status: 400, body: { error: { message: `bad prompt ${n++}` } } });
    const model = sonnet({ cache: "off", maxRetries: 0 });
    for (let i = 0; i < 4; i++) await model.generate(request(`d${i}`)).catch(() => undefined);
    script = () => ({ kind: "status", status: 500 });
    for (let i = 0; i < 4; i++) await model.generate(request(`e${i}`)).catch(() => undefined);
    script = () => ({ kind: "status", status: 429 });
    for (let i = 0; i < 4; i++) await model.generate(request(`r${i}`)).catch(() => undefined);
    expect(model.stopped!()).toBeUndefined();
  });

  test("--provider-concurrency replaces the registry's cap", async () => {
    expect(await slowBurst(sonnet({ cache: "off", providerConcurrency: 3 }), "p", 12)).toBe(3);
    expect(await slowBurst(sonnet({ cache: "off", providerConcurrency: 12 }), "q", 12)).toBe(12);
  });

  test("an openai-compatible server has no cap of its own: every request the run makes is in flight", async () => {
    const env = { OPENAI_COMPATIBLE_API_KEY: "k" };
    const resolved = resolveModelName(`openai-compatible:${server.openaiBaseURL}#m`, env);
    expect(resolved.concurrency).toBeNull();
    const model = providerModel(resolved, modelSettings({ cacheDir: tmp(), cache: "off" }, env), env);
    expect(await slowBurst(model, "o", 16)).toBe(16);
  });
});

describe("response cache", () => {
  const sampling: SamplingSettings = { temperature: 0.7, maxTokens: 100, seed: null };
  const parts = {
    provider: "anthropic",
    model: "m",
    messages: [{ role: "user" as const, content: "hi" }],
    sampling,
    epoch: 0,
  };

  test("the key changes with every part: provider, model, messages, sampling, epoch", () => {
    const base = cacheKey(parts);
    expect(cacheKey({ ...parts })).toBe(base);
    for (const changed of [
      { ...parts, provider: "openrouter" },
      { ...parts, model: "n" },
      { ...parts, messages: [{ role: "user" as const, content: "hi!" }] },
      { ...parts, messages: [{ role: "system" as const, content: "hi" }] },
      { ...parts, sampling: { ...sampling, temperature: 0 } },
      { ...parts, sampling: { ...sampling, maxTokens: 101 } },
      { ...parts, sampling: { ...sampling, seed: 1 } },
      { ...parts, epoch: 1 },
    ])
      expect(cacheKey(changed)).not.toBe(base);
  });

  test("concurrent writers of one key never leave a partial or temporary file", async () => {
    const dir = tmp();
    const cache = createResponseCache({ dir, mode: "on" });
    const file = cache.file(parts);
    const writer = `
      import { createResponseCache } from ${JSON.stringify(path.join(PROJECT_ROOT, "src/models/cache.ts"))};
      const cache = createResponseCache({ dir: ${JSON.stringify(dir)}, mode: "on" });
      const parts = ${JSON.stringify(parts)};
      for (let i = 0; i < 200; i++)
        cache.put(parts, { text: "w" + process.pid + "-" + i + "x".repeat(20000), usage: { inputTokens: 1, outputTokens: 1 }, finishReason: "stop" }, null);
    `;
    const writers = Array.from({ length: 4 }, () =>
      run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", writer], { cwd: PROJECT_ROOT }),
    );
    let reads = 0;
    let done = false;
    const all = Promise.all(writers).finally(() => {
      done = true;
    });
    while (!done) {
      const entry = cache.get(parts);
      if (entry) {
        reads++;
        expect(entry.response.text).toMatch(/^w\d+-\d+x{20000}$/);
      }
      await new Promise((r) => setImmediate(r));
    }
    await all;
    expect(reads).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(file, "utf8")).response.text).toMatch(/^w\d+-199/);
    expect(readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
  }, 600_000);
});

describe("usage, cost and budget", () => {
  test("adds calls into an instance record and sums records into a run total", () => {
    const a = addUsage(undefined, {
      text: "",
      usage: { inputTokens: 1000, outputTokens: 200 },
      costUsd: 0.006,
      cached: false,
    });
    const b = addUsage(a, {
      text: "",
      usage: { inputTokens: 1500, outputTokens: 100 },
      costUsd: 0.006,
      cached: true,
    });
    expect(b).toEqual({
      calls: 2,
      cachedCalls: 1,
      inputTokens: 2500,
      outputTokens: 300,
      costUsd: 0.012,
      spentUsd: 0.006,
    });
    expect(addUsage(undefined, { text: "reference" })).toBeUndefined();
    expect(sumUsage([b, undefined, b])).toMatchObject({ calls: 4, costUsd: 0.024, spentUsd: 0.012 });
    expect(sumUsage([b, { ...b!, costUsd: null, spentUsd: null }]).costUsd).toBeNull();
    expect(costOf({ inputTokens: 1e6, outputTokens: 1e6 }, { input: 3, output: 15 })).toBe(18);
    expect(costOf({ inputTokens: 1, outputTokens: 1 }, null)).toBeNull();
  });

  test("estimates a composite attempt as a plan call plus optimal_steps + 1 rounds over a growing conversation", () => {
    expect(estimateAttemptUsage({ promptChars: 7000, split: "atomic" })).toEqual({
      calls: 1,
      inputTokens: 2000,
      outputTokens: 1500,
    });
    expect(estimateAttemptUsage({ promptChars: 7000, split: "composite", optimalSteps: 2 })).toEqual({
      calls: 4,
      inputTokens: 4 * 2000 + (1 + 2 + 3) * 1150,
      outputTokens: 4000,
    });
  });

  test("the budget admits instances while the projected spend stays under the limit, then stops for good", () => {
    let spent = 0;
    const budget = createBudget({ limitUsd: 1, spentUsd: () => spent });
    expect(budget.admit(0.3)).toBe(true); // 0 + 1 × 0.3
    expect(budget.admit(0.3)).toBe(true); // 0 + 2 × 0.3
    expect(budget.admit(0.3)).toBe(true); // 0 + 3 × 0.3
    expect(budget.admit(0.3)).toBe(false); // 0 + 4 × 0.3 > 1
    expect(budget.stopped).toBe(true);
    spent = 0.1;
    budget.settle(0.1);
    expect(budget.admit(0.01)).toBe(false);
    // Once an instance has paid, the measured mean replaces the prior.
    spent = 0.05;
    const measured = createBudget({ limitUsd: 1, spentUsd: () => spent });
    expect(measured.admit(0.5)).toBe(true);
    measured.settle(0.05);
    expect(measured.admit(2)).toBe(true); // 0.05 + 1 × 0.05, not 0.05 + 2
  });
});
