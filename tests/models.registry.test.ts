import { describe, expect, test } from "vitest";
import { loadRegistry, resolveModelName } from "../src/models/registry.ts";
import { resolveModel } from "../src/models/resolve.ts";

// The 20 models of the paper's Table 1 / Table 10, by the names Table 10 uses.
const TABLE_1 = [
  "gemini-3-pro-preview",
  "claude-sonnet-4.5",
  "kimi-k2-thinking",
  "gpt-5.1",
  "deepseek-v3.2",
  "gemini-2.5-flash",
  "gpt-oss-120b",
  "grok-4-fast",
  "gpt-5.1-codex-mini",
  "gpt-5",
  "claude-haiku-4.5",
  "qwen3-235b-thinking",
  "qwen3-max",
  "glm-4.6",
  "qwen3-30b-thinking",
  "mimo-v2-flash",
  "qwen3-coder-flash",
  "qwen3-coder",
  "qwen3-coder-30b",
  "devstral-2512",
];

describe("model registry", () => {
  const registry = loadRegistry();

  test("lists the paper's 20 models, each with a provider, a model id, an OpenRouter id and a price", () => {
    expect(Object.keys(registry.models).sort()).toEqual([...TABLE_1].sort());
    expect(registry.pricesAsOf).toMatch(/check before relying on them/);
    for (const [name, m] of Object.entries(registry.models)) {
      expect(registry.providers[m.provider], name).toBeDefined();
      expect(m.model, name).toBeTruthy();
      expect(m.openrouter, name).toMatch(/^[a-z0-9-]+\/[\w.-]+$/);
      expect(m.price.input, name).toBeGreaterThan(0);
      expect(m.price.output, name).toBeGreaterThanOrEqual(m.price.input);
    }
  });

  test("every alias names one model and none shadows a model name", () => {
    const seen = new Set(Object.keys(registry.models));
    for (const m of Object.values(registry.models))
      for (const alias of m.aliases ?? []) {
        expect(seen.has(alias), alias).toBe(false);
        seen.add(alias);
      }
  });

  test("resolves short aliases to provider, model id, base URL, key variable and price", () => {
    expect(resolveModelName("claude-sonnet", {})).toMatchObject({
      registryName: "claude-sonnet-4.5",
      provider: "anthropic",
      api: "anthropic",
      model: "claude-sonnet-4-5",
      baseURL: "https://api.anthropic.com",
      apiKeyEnv: "ANTHROPIC_API_KEY",
      price: { input: 3, output: 15 },
      temperature: true,
      seed: false,
    });
    expect(resolveModelName("gpt-5", {})).toMatchObject({
      provider: "openai",
      model: "gpt-5",
      apiKeyEnv: "OPENAI_API_KEY",
      temperature: false,
      maxTokensParam: "max_completion_tokens",
    });
    expect(resolveModelName("deepseek-v3.2", {})).toMatchObject({
      provider: "deepseek",
      api: "openai",
      model: "deepseek-chat",
      baseURL: "https://api.deepseek.com",
      apiKeyEnv: "DEEPSEEK_API_KEY",
    });
  });

  test("a provider's base URL variable points an alias elsewhere (a proxy, a local fake)", () => {
    expect(resolveModelName("claude-haiku", { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" }).baseURL).toBe(
      "http://127.0.0.1:9",
    );
  });

  test("openrouter/<alias> and openrouter/<vendor>/<id> go through OpenRouter", () => {
    expect(resolveModelName("openrouter/claude-sonnet", {})).toMatchObject({
      provider: "openrouter",
      model: "anthropic/claude-sonnet-4.5",
      baseURL: "https://openrouter.ai/api/v1",
      apiKeyEnv: "OPENROUTER_API_KEY",
      price: { input: 3, output: 15 },
    });
    expect(resolveModelName("openrouter/moonshotai/kimi-k2-thinking", {})).toMatchObject({
      model: "moonshotai/kimi-k2-thinking",
      registryName: "kimi-k2-thinking",
      price: { input: 0.6, output: 2.5 },
    });
    expect(resolveModelName("openrouter/meta-llama/llama-4-maverick", {})).toMatchObject({
      model: "meta-llama/llama-4-maverick",
      price: null,
    });
  });

  test("openai-compatible:<baseURL>#<model> and <provider>:<model-id> are ad-hoc models", () => {
    expect(resolveModelName("openai-compatible:http://127.0.0.1:11434/v1#qwen3-coder:30b", {})).toMatchObject(
      {
        provider: "openai-compatible",
        api: "openai",
        baseURL: "http://127.0.0.1:11434/v1",
        model: "qwen3-coder:30b",
        apiKeyEnv: "OPENAI_COMPATIBLE_API_KEY",
        apiKeyOptional: true,
        price: null,
      },
    );
    expect(resolveModelName("anthropic:claude-opus-4-1", {})).toMatchObject({
      provider: "anthropic",
      model: "claude-opus-4-1",
      price: null,
    });
    expect(resolveModelName("openai:gpt-5", {})).toMatchObject({
      registryName: "gpt-5",
      price: { input: 1.25 },
    });
  });

  test("refuses names it cannot resolve", () => {
    expect(() => resolveModelName("gpt-4-turbo-2024", {})).toThrow("unknown model 'gpt-4-turbo-2024'");
    expect(() => resolveModelName("openai-compatible:localhost#x", {})).toThrow(
      "'openai-compatible:localhost#x' is not openai-compatible:<baseURL>#<model>",
    );
    expect(() => resolveModelName("openrouter/nonsense", {})).toThrow("unknown model 'openrouter/nonsense'");
  });

  test("a missing key is a one-line error naming the variable", () => {
    expect(() => resolveModel("claude-sonnet", {}, {})).toThrowErrorMatchingInlineSnapshot(
      `[ProviderCallError: ANTHROPIC_API_KEY is not set (model 'claude-sonnet' is claude-sonnet-4-5 on anthropic); export it or use --cache replay]`,
    );
    expect(() => resolveModel("openrouter/qwen/qwen3-coder", {}, {})).toThrow(
      /^OPENROUTER_API_KEY is not set/,
    );
    // Local servers need no key; replaying the cache needs none either.
    expect(resolveModel("openai-compatible:http://127.0.0.1:1/v1#m", {}, {}).id).toBe(
      "openai-compatible:http://127.0.0.1:1/v1#m",
    );
    expect(resolveModel("gpt-5", { cache: "replay" }, {}).id).toBe("gpt-5");
  });
});
