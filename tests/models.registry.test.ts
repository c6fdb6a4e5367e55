import { describe, expect, test } from "vitest";
import { UnknownModelError } from "../src/errors.ts";
import { checkRunModel } from "../src/models/checkRunModel.ts";
import { modelIdentity } from "../src/models/identity.ts";
import { cacheProvider } from "../src/models/providerModel.ts";
import { lifecycleWarning, loadRegistry, resolveModelName } from "../src/models/registry.ts";
import { resolveModel, resolveProviderModel } from "../src/models/resolve.ts";
import { outDir, parseRunFlags } from "../src/runOptions.ts";

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

  test("keeps the paper's 20 models, marked paper: true, each with a provider, a model id, an OpenRouter id and a price", () => {
    const paper = Object.entries(registry.models).filter(([, m]) => m.paper);
    expect(paper.map(([name]) => name).sort()).toEqual([...TABLE_1].sort());
    expect(registry.pricesAsOf).toMatch(/check before relying on them/);
    for (const [name, m] of paper) {
      expect(m.paperName, name).toBeTruthy();
      expect(m.price?.input, name).toBeGreaterThan(0);
      expect(m.price!.output, name).toBeGreaterThanOrEqual(m.price!.input);
    }
    for (const [name, m] of Object.entries(registry.models)) {
      expect(registry.providers[m.provider], name).toBeDefined();
      expect(m.model, name).toBeTruthy();
      expect(m.openrouter, name).toMatch(/^[a-z0-9-]+\/[\w.-]+$/);
      if (m.price) expect(m.price.output, name).toBeGreaterThanOrEqual(m.price.input);
      // A model without a price says so instead of carrying a guess.
      else expect(`${m.checked.note} ${m.notes}`, name).toMatch(/price/i);
    }
  });

  test("every model has a lifecycle, the date and source it was checked against, and a live replacement when not active", () => {
    const date = /^\d{4}-\d{2}-\d{2}$/;
    for (const [name, m] of Object.entries(registry.models)) {
      expect(["active", "deprecated", "retired"], name).toContain(m.status);
      if (m.retiresOn !== null) expect(m.retiresOn, name).toMatch(date);
      expect(m.checked.on, name).toMatch(date);
      expect(m.checked.source, name).toMatch(/^https:\/\/|node_modules/);
      if (m.status === "active") expect(m.replacement, name).toBeUndefined();
      else expect(registry.models[m.replacement!]?.status, `${name} → ${m.replacement}`).toBe("active");
    }
    // Known from the providers: Sonnet 4.5 retires 2026-11-30; DeepSeek retired deepseek-chat in July 2026.
    expect(registry.models["claude-sonnet-4.5"]).toMatchObject({
      status: "deprecated",
      retiresOn: "2026-11-30",
    });
    expect(registry.models["deepseek-v3.2"]).toMatchObject({ model: "deepseek-chat", status: "retired" });
  });

  test("the everyday aliases exist and point at active models only", () => {
    for (const alias of [
      "claude-sonnet",
      "claude-opus",
      "claude-haiku",
      "gpt",
      "gpt-mini",
      "gemini-pro",
      "gemini-flash",
      "deepseek",
      "qwen",
      "grok",
      "kimi",
      "glm",
      "mistral",
    ])
      expect(resolveModelName(alias, {}).status, alias).toBe("active");
    for (const [name, m] of Object.entries(registry.models))
      if (m.status !== "active") expect(m.aliases, name).toBeUndefined();
  });

  test("a retired model is refused before a run, naming its replacement; a deprecated one is a warning", () => {
    expect(() => checkRunModel({ model: "deepseek-v3.2" }, { DEEPSEEK_API_KEY: "k" })).toThrow(
      "model 'deepseek-v3.2' (deepseek-chat on deepseek) was retired on 2026-07-24; use deepseek-v4-flash (alias deepseek) instead (src/models/registry.json)",
    );
    expect(() => checkRunModel({ model: "deepseek:deepseek-chat" }, { DEEPSEEK_API_KEY: "k" })).toThrow(
      /was retired on 2026-07-24; use deepseek-v4-flash/,
    );
    expect(checkRunModel({ model: "claude-sonnet-4.5" }, { ANTHROPIC_API_KEY: "k" })).toEqual([
      "model 'claude-sonnet-4.5' (claude-sonnet-4-5 on anthropic) is deprecated and retires on 2026-11-30; use claude-sonnet-5 (alias claude-sonnet) instead",
    ]);
    expect(checkRunModel({ model: "claude-sonnet" }, { ANTHROPIC_API_KEY: "k" })).toEqual([]);
    // Replaying a retired model's cache calls no provider: allowed, with a warning.
    expect(checkRunModel({ model: "deepseek-v3.2", cache: "replay" }, {})).toEqual([
      "model 'deepseek-v3.2' (deepseek-chat on deepseek) was retired on 2026-07-24: replaying its cached answers only",
    ]);
    // Through OpenRouter an open-weights model outlives its maker's API: no lifecycle is claimed there.
    expect(checkRunModel({ model: "openrouter/deepseek-v3.2" }, { OPENROUTER_API_KEY: "k" })).toEqual([]);
    expect(
      lifecycleWarning(resolveModelName("openai-compatible:http://127.0.0.1:1/v1#m", {})),
    ).toBeUndefined();
  });

  test("scripted:DIR that does not exist is refused before any chain starts", () => {
    expect(() => checkRunModel({ model: "scripted:/no/such/dir" })).toThrow(
      /^scripted:\/no\/such\/dir: .* does not exist; scripted:DIR takes a directory of response files/,
    );
    expect(() => checkRunModel({ model: "scripted:package.json" })).toThrow(
      /package\.json is not a directory/,
    );
    expect(checkRunModel({ model: "scripted:tests/scripted/recovers" })).toEqual([]);
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
      registryName: "claude-sonnet-5",
      model: "claude-sonnet-5",
      temperature: false,
      status: "active",
    });
    expect(resolveModelName("claude-sonnet-4.5", {})).toMatchObject({
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
    expect(resolveModelName("openrouter/claude-sonnet-4.5", {})).toMatchObject({
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

  test("refuses names it cannot resolve in one line that suggests the closest name and lists the aliases", () => {
    let message = "";
    try {
      resolveModelName("claude-sonet", {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain("\n");
    expect(message).toMatch(
      /^unknown model 'claude-sonet'; did you mean 'claude-sonnet'\?; aliases: .*claude-opus.*gemini-flash/,
    );
    expect(message).toContain("openai-compatible:<baseURL>#<model>");
    expect(() => resolveModelName("gpt-4-turbo-2024", {})).toThrow("unknown model 'gpt-4-turbo-2024'");
    expect(() => resolveModelName("openai-compatible:localhost#x", {})).toThrow(
      "'openai-compatible:localhost#x' is not openai-compatible:<baseURL>#<model>",
    );
    expect(() => resolveModelName("openrouter/nonsense", {})).toThrow("unknown model 'openrouter/nonsense'");
  });

  test("a missing key is a one-line error naming the variable", () => {
    expect(() => resolveModel("claude-sonnet", {}, {})).toThrowErrorMatchingInlineSnapshot(
      `[ProviderCallError: ANTHROPIC_API_KEY is not set (model 'claude-sonnet' is claude-sonnet-5 on anthropic); export it or use --cache replay]`,
    );
    expect(() => resolveModel("openrouter/qwen/qwen3-coder", {}, {})).toThrow(
      /^OPENROUTER_API_KEY is not set/,
    );
    // Local servers need no key (and are named without their port); replaying the cache needs none either.
    expect(resolveModel("openai-compatible:http://127.0.0.1:1/v1#m", {}, {}).id).toBe(
      "openai-compatible:127.0.0.1#m",
    );
    expect(resolveModel("gpt-5", { cache: "replay" }, {}).id).toBe("gpt-5");
  });

  test("an openai-compatible endpoint is named by its host and model, without the port, or by --name", () => {
    const at = (port: number) => `openai-compatible:http://127.0.0.1:${port}/v1#qwen3-coder:30b`;
    expect(modelIdentity(at(8000))).toBe("openai-compatible:127.0.0.1#qwen3-coder:30b");
    expect(modelIdentity(at(8001))).toBe(modelIdentity(at(8000)));
    expect(modelIdentity(at(8000), "my-vllm")).toBe("my-vllm");
    expect(modelIdentity("claude-sonnet")).toBe("claude-sonnet");
    expect(outDir({ model: at(8000) })).toBe(
      ".questbench/results/openai-compatible_127.0.0.1_qwen3-coder_30b",
    );
    // The response cache keys the endpoint the same way: another port, the same cache entries.
    const provider = (port: number, name?: string) =>
      cacheProvider(resolveProviderModel(at(port), name ? { name } : {}, {}));
    expect(provider(8000)).toBe("openai-compatible:127.0.0.1");
    expect(provider(8001)).toBe(provider(8000));
    expect(provider(8000, "my-vllm")).toBe("openai-compatible:my-vllm");
    expect(cacheProvider(resolveProviderModel("claude-sonnet", {}, {}))).toBe("anthropic");
  });

  test("--price-in/--price-out give a model its price, for cost and --budget", () => {
    const local = "openai-compatible:http://127.0.0.1:1/v1#m";
    expect(resolveProviderModel(local, {}, {}).price).toBeNull();
    expect(() => checkRunModel({ model: local, budget: 1 }, {})).toThrow(
      "--budget needs a model with a price: 'openai-compatible:http://127.0.0.1:1/v1#m' has none in src/models/registry.json; give one with --price-in and --price-out (USD per million tokens)",
    );
    const price = { input: 0.2, output: 0.6 };
    expect(resolveProviderModel(local, { price }, {})).toMatchObject({ price, pricesAsOf: null });
    expect(checkRunModel({ model: local, budget: 1, price }, {})).toEqual([]);
    expect(parseRunFlags(["--price-in", "0.2", "--price-out=0.6"]).price).toEqual(price);
    expect(() => parseRunFlags(["--price-in", "0.2"])).toThrow("--price-in and --price-out go together");
    expect(() => checkRunModel({ model: "reference", price }, {})).toThrow(/calls no provider/);
    // A flag the model cannot take is a usage error (exit 2: UnknownModelError's kind), not a provider fault.
    expect(() => checkRunModel({ model: "reference", budget: 1 }, {})).toThrow(UnknownModelError);
    expect(() => checkRunModel({ model: "reference", budget: 1 }, {})).toThrow(
      /calls no provider and costs nothing/,
    );
  });
});
