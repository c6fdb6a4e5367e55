import { anthropicAdapter } from "./adapters/anthropic.ts";
import { openaiAdapter } from "./adapters/openai.ts";
import type { Adapter, AdapterResponse } from "./adapters/types.ts";
import { createFailureBreaker } from "./breaker.ts";
import { type CacheKeyParts, createResponseCache } from "./cache.ts";
import { ProviderCallError } from "./errors.ts";
import { endpointHost } from "./identity.ts";
import { providerLimit } from "./limit.ts";
import type { ResolvedModel } from "./registry.ts";
import type { ModelSettings } from "./settings.ts";
import type { ModelClient, ModelRequest, ModelStats, SamplingSettings } from "./types.ts";
import { costOf } from "./usage.ts";

/**
 * The sampling settings actually sent to `model`: no temperature for models that accept only their
 * default, the output cap lowered to the provider's maximum, a seed only where the provider takes one.
 */
export function effectiveSampling(model: ResolvedModel, requested: SamplingSettings): SamplingSettings {
  return {
    temperature: model.temperature ? requested.temperature : null,
    maxTokens: Math.min(requested.maxTokens, model.maxOutputTokens ?? Number.POSITIVE_INFINITY),
    seed: model.seed ? requested.seed : null,
  };
}

/**
 * The provider part of the cache key: a registry provider by its name, an `openai-compatible`
 * endpoint by `--name` or else its host without port or path (src/models/identity.ts), so a server
 * restarted on another port answers from the same cache.
 */
export function cacheProvider(model: ResolvedModel): string {
  if (model.provider !== "openai-compatible") return model.provider;
  return `openai-compatible:${model.endpointName ?? endpointHost(`openai-compatible:${model.baseURL}#`) ?? model.baseURL}`;
}

/**
 * Reads the API key of `model` from its environment variable.
 * @throws {ProviderCallError} `missing_key`, one line naming the variable, when it is unset (optional
 * keys, for `openai-compatible:` endpoints, fall back to a placeholder).
 */
export function apiKeyOf(model: ResolvedModel, env: NodeJS.ProcessEnv = process.env): string {
  const key = env[model.apiKeyEnv];
  if (key) return key;
  if (model.apiKeyOptional) return "none";
  throw new ProviderCallError(
    `${model.apiKeyEnv} is not set (model '${model.name}' is ${model.model} on ${model.provider}); export it or use --cache replay`,
    { code: "missing_key" },
  );
}

/**
 * A 400/404/422 answer to a request that carried tools and names them (vLLM without tool parsing,
 * Ollama's "does not support tools", a gateway without function calling): said as such, so the run
 * stops with a line naming the cause instead of falling back to another protocol.
 */
function toolsRefusal(error: ProviderCallError, parts: CacheKeyParts): ProviderCallError {
  if (!parts.tools?.length || error.code !== "bad_request" || !/tool|function/i.test(error.message))
    return error;
  return new ProviderCallError(
    `${error.message.split("\n")[0]} — the endpoint does not take tool definitions, which --protocol tools needs (native function calling; docs/PROTOCOLS.md)`,
    { code: "tools_unsupported", status: error.status },
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A real model behind the `ModelClient` interface (docs/ARCHITECTURE.md "Models"): the adapter of its wire format,
 * the response cache, the provider's concurrency cap, a retry of malformed answers, a breaker that
 * stops the run after N identical non-retryable 4xx answers, and token and cost accounting. The key is read at once, so a missing key fails before any chain starts.
 * @throws {ProviderCallError} `missing_key` at construction; from `generate`, after retries, any
 * provider failure, `cache_miss` in replay mode, or `run_stopped` once the breaker tripped.
 */
export function providerModel(
  model: ResolvedModel,
  settings: ModelSettings,
  env: NodeJS.ProcessEnv = process.env,
): ModelClient {
  const apiKey = settings.cache === "replay" ? (env[model.apiKeyEnv] ?? "replay") : apiKeyOf(model, env);
  const params = {
    baseURL: model.baseURL,
    apiKey,
    model: model.model,
    maxRetries: settings.maxRetries,
    timeoutMs: settings.timeoutMs,
    seed: model.seed,
    maxTokensParam: model.maxTokensParam,
  };
  const adapter: Adapter = model.api === "anthropic" ? anthropicAdapter(params) : openaiAdapter(params);
  const cache = createResponseCache({ dir: settings.cacheDir, mode: settings.cache });
  const sampling = effectiveSampling(model, settings.sampling);
  const limit = providerLimit(
    cacheProvider(model),
    settings.providerConcurrency ?? model.concurrency ?? Number.POSITIVE_INFINITY,
  );
  const breaker = createFailureBreaker(settings.stopAfterIdentical4xx);
  const stats: ModelStats = {
    calls: 0,
    cachedCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    spentUsd: model.price ? 0 : null,
  };

  const call = async (parts: CacheKeyParts, onRetry: ModelRequest["onRetry"]): Promise<AdapterResponse> => {
    let retries = 0;
    let retryWaitMs = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await limit.run(() =>
          adapter.generate(parts.messages, sampling, { onRetry }, parts.tools),
        );
        return {
          ...response,
          retries: response.retries + retries,
          retryWaitMs: response.retryWaitMs + retryWaitMs,
        };
      } catch (error) {
        if (!(error instanceof ProviderCallError && error.retryable) || attempt >= settings.malformedRetries)
          throw error;
        const base = settings.malformedRetryDelayMs * 2 ** attempt;
        const delay = base * (1 - Math.random() * 0.25);
        retries++;
        retryWaitMs += delay;
        onRetry?.({
          status: 200,
          retry: attempt + 1,
          maxRetries: settings.malformedRetries,
          retryAfterMs: null,
        });
        await sleep(delay);
      }
    }
  };

  return {
    id: model.name,
    stats: () => ({ ...stats }),
    stopped: () => breaker.stopped(),
    async generate(request) {
      const parts: CacheKeyParts = {
        provider: cacheProvider(model),
        model: model.model,
        messages: request.messages,
        sampling,
        epoch: request.instance.epoch,
        ...(request.tools?.length ? { tools: request.tools } : {}),
      };
      const hit = cache.get(parts);
      let response: AdapterResponse;
      let cached = false;
      if (hit) {
        response = { ...hit.response, raw: hit.raw, retries: 0, retryWaitMs: 0 };
        cached = true;
      } else {
        if (cache.mode === "replay")
          throw new ProviderCallError(
            `cache miss in replay mode (${request.spec.id}, ${request.step}${request.round ? ` ${request.round}` : ""})`,
            { code: "cache_miss", details: `no ${cache.file(parts)}` },
          );
        const stop = breaker.stopped();
        if (stop) throw stop;
        try {
          response = await call(parts, request.onRetry);
        } catch (error) {
          throw error instanceof ProviderCallError ? breaker.record(toolsRefusal(error, parts)) : error;
        }
        cache.put(
          parts,
          {
            text: response.text,
            ...(response.toolCalls?.length ? { toolCalls: response.toolCalls } : {}),
            usage: response.usage,
            finishReason: response.finishReason,
          },
          response.raw,
        );
      }
      const costUsd = costOf(response.usage, model.price);
      stats.calls++;
      if (cached) stats.cachedCalls++;
      stats.inputTokens += response.usage.inputTokens;
      stats.outputTokens += response.usage.outputTokens;
      if (stats.spentUsd !== null && costUsd !== null && !cached) stats.spentUsd += costUsd;
      return {
        text: response.text,
        ...(response.toolCalls?.length ? { toolCalls: response.toolCalls } : {}),
        usage: response.usage,
        raw: response.raw,
        cached,
        costUsd,
        retries: response.retries,
        retryWaitMs: response.retryWaitMs,
      };
    },
  };
}
