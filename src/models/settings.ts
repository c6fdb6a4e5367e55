import path from "node:path";
import { DEFAULT_STOP_AFTER_IDENTICAL_4XX } from "./breaker.ts";
import type { CacheMode } from "./cache.ts";
import type { Price } from "./registry.ts";
import type { SamplingSettings } from "./types.ts";

/** How provider models are called: sampling, cache, retries (the model flags of `npx questbench`). */
export type ModelSettings = {
  sampling: SamplingSettings;
  cache: CacheMode;
  /** Absolute path of the response cache. */
  cacheDir: string;
  /** SDK retries after the first try, on 429/408/409/5xx/timeouts/connection errors. */
  maxRetries: number;
  /** Per-try request timeout in milliseconds. */
  timeoutMs: number;
  /** Extra tries (with backoff) after a malformed 200 answer, which the SDKs do not retry. */
  malformedRetries: number;
  /** Base of the backoff between those extra tries, in milliseconds. */
  malformedRetryDelayMs: number;
  /** `--provider-concurrency`: overrides the provider's cap on requests in flight; null keeps it. */
  providerConcurrency: number | null;
  /** Identical non-retryable 4xx answers after which the run stops (src/models/breaker.ts). */
  stopAfterIdentical4xx: number;
};

/** The paper's decoding temperature (§4.4). */
export const DEFAULT_TEMPERATURE = 0.7;
export const DEFAULT_MAX_TOKENS = 16_384;
export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_REQUEST_TIMEOUT_S = 600;
export const DEFAULT_CACHE_DIR = ".questbench/cache";

/** The model-related run options (all optional; see {@link modelSettings} for the defaults). */
export type ModelOptions = {
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  modelSeed?: number | undefined;
  cache?: CacheMode | undefined;
  cacheDir?: string | undefined;
  maxRetries?: number | undefined;
  requestTimeout?: number | undefined;
  /** Requests in flight to the provider at once (overrides the registry's cap). */
  providerConcurrency?: number | undefined;
  /**
   * `--price-in`/`--price-out`, USD per million input/output tokens: the model's price for cost and
   * `--budget` (instead of the registry's; the only price a custom endpoint can have).
   */
  price?: Price | undefined;
  /** `--name`: the model's identity in output folders, results and the cache (src/models/identity.ts). */
  name?: string | undefined;
};

/**
 * Model settings from run options and the environment: temperature 0.7, 16,384 output tokens, no
 * seed, cache `on` in `--cache-dir`, else `QUESTBENCH_CACHE_DIR`, else `.questbench/cache`; 5 SDK
 * retries; 600 s per try; the run stops after 3 identical non-retryable 4xx answers.
 */
export function modelSettings(o: ModelOptions, env: NodeJS.ProcessEnv = process.env): ModelSettings {
  return {
    sampling: {
      temperature: o.temperature ?? DEFAULT_TEMPERATURE,
      maxTokens: o.maxTokens ?? DEFAULT_MAX_TOKENS,
      seed: o.modelSeed ?? null,
    },
    cache: o.cache ?? "on",
    cacheDir: path.resolve(o.cacheDir || env.QUESTBENCH_CACHE_DIR || DEFAULT_CACHE_DIR),
    maxRetries: o.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeoutMs: (o.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_S) * 1000,
    malformedRetries: 2,
    malformedRetryDelayMs: 1000,
    providerConcurrency: o.providerConcurrency ?? null,
    stopAfterIdentical4xx: DEFAULT_STOP_AFTER_IDENTICAL_4XX,
  };
}
