import { readFileSync } from "node:fs";
import { didYouMean } from "../didYouMean.ts";
import { ModelProviderError, UnknownModelError } from "../errors.ts";

/** USD per million tokens. */
export type Price = { input: number; output: number };

/** One provider of registry.json: which wire format it speaks and where its key lives. */
export type ProviderEntry = {
  api: "openai" | "anthropic";
  baseURL: string;
  /** Environment variable holding the API key (the SDKs' usual names). */
  apiKeyEnv: string;
  /** Environment variable that overrides `baseURL` (e.g. a proxy or a local fake server). */
  baseURLEnv: string;
  /** Requests in flight to this provider at once, over the whole run. */
  concurrency: number;
  /** Whether the provider accepts a sampling seed. */
  seed: boolean;
  /** The request field capping the output (OpenAI wire only). */
  maxTokensParam?: "max_tokens" | "max_completion_tokens";
};

/**
 * Where a model is in its provider's lifecycle: `deprecated` still answers but has a retirement date,
 * `retired` answers no more (the CLI refuses it and names the replacement).
 */
export type ModelStatus = "active" | "deprecated" | "retired";

/** One model of registry.json. */
export type ModelEntry = {
  /** The model's name in the paper's Table 1 (paper models only). */
  paperName?: string;
  /** One of the paper's 20 models, kept as the paper ran it. */
  paper: boolean;
  status: ModelStatus;
  /** ISO date the provider retires (retired) the model, when known. */
  retiresOn: string | null;
  /** The registry name to use instead, for a deprecated or retired model. */
  replacement?: string;
  /** When and against which page the entry was last checked, and what could not be confirmed. */
  checked: { on: string; source: string; note?: string };
  provider: string;
  /** The provider's model id. */
  model: string;
  /** The OpenRouter id, so `openrouter/<name>` reaches the same model. */
  openrouter?: string;
  /** null: no price was found (the model runs, but not with `--budget`). */
  price: Price | null;
  /** false: the model accepts only its default temperature, so none is sent. */
  temperature?: false;
  /** The provider's cap on output tokens, when below the run's `--max-tokens`. */
  maxOutputTokens?: number;
  aliases?: string[];
  notes?: string;
};

export type Registry = {
  pricesAsOf: string;
  providers: Record<string, ProviderEntry>;
  models: Record<string, ModelEntry>;
};

/** A `--model` name resolved to everything a provider client needs (no key read yet). */
export type ResolvedModel = {
  /** The name as given on the command line. */
  name: string;
  /** The registry name the alias resolved to, if any. */
  registryName: string | null;
  /** Registry provider name, or `openai-compatible`. */
  provider: string;
  api: "openai" | "anthropic";
  /** Model id sent to the provider. */
  model: string;
  baseURL: string;
  /** Where the key comes from; for `openai-compatible` it is optional (local servers need none). */
  apiKeyEnv: string;
  apiKeyOptional: boolean;
  price: Price | null;
  pricesAsOf: string | null;
  /** false: no temperature is sent (recorded as null). */
  temperature: boolean;
  seed: boolean;
  maxTokensParam: "max_tokens" | "max_completion_tokens";
  maxOutputTokens: number | null;
  /**
   * Requests in flight to this provider at once over the run (the registry's per-provider cap); null
   * for `openai-compatible`, the user's own server: only `--concurrency` bounds it there.
   */
  concurrency: number | null;
  notes: string | null;
  /** The registry entry's lifecycle; `active` for names outside the registry. */
  status: ModelStatus;
  retiresOn: string | null;
  replacement: string | null;
  /** `--name`: what names an `openai-compatible` endpoint in the response cache, instead of its host. */
  endpointName?: string | undefined;
};

let registry: Registry | undefined;

/** The model registry (src/models/registry.json): providers, the paper's 20 models and the current ones, their aliases, prices and lifecycle. */
export function loadRegistry(): Registry {
  registry ??= JSON.parse(readFileSync(new URL("./registry.json", import.meta.url), "utf8")) as Registry;
  return registry;
}

/** The registry name of `name` (a registry name or one of its aliases), or undefined. */
export function registryName(name: string, r: Registry = loadRegistry()): string | undefined {
  if (r.models[name]) return name;
  return Object.entries(r.models).find(([, m]) => m.aliases?.includes(name))?.[0];
}

/** Environment variable for the key of `openai-compatible:` endpoints (optional: vLLM and Ollama need none). */
export const OPENAI_COMPATIBLE_KEY_ENV = "OPENAI_COMPATIBLE_API_KEY";

/**
 * Resolves a provider model name (README "Provider models", docs/RUNNING.md "Provider models"):
 * - a registry name or alias: `claude-sonnet-4.5`, `claude-sonnet`, `gpt-5`, `deepseek-v3.2`;
 * - `openrouter/<name>` (a registry name or alias through OpenRouter) or `openrouter/<vendor>/<id>` (any
 *   OpenRouter id; priced when a registry model has that id);
 * - `<provider>:<model-id>` for any registry provider, e.g. `anthropic:claude-opus-4-1`, `deepseek:deepseek-reasoner`;
 * - `openai-compatible:<baseURL>#<model>` for any OpenAI-compatible endpoint (vLLM, Ollama, LM Studio …),
 *   key from `OPENAI_COMPATIBLE_API_KEY` if set.
 * A provider's base URL can be overridden with its `baseURLEnv` (e.g. `ANTHROPIC_BASE_URL`).
 * @throws {UnknownModelError} for a name that matches none of these (one line: the closest name and the aliases).
 */
export function resolveModelName(name: string, env: NodeJS.ProcessEnv = process.env): ResolvedModel {
  const r = loadRegistry();
  const fromProvider = (
    provider: string,
    model: string,
    entry: ModelEntry | undefined,
    regName: string | null,
  ): ResolvedModel => {
    const p = r.providers[provider]!;
    const own = entry !== undefined && entry.provider === provider;
    return {
      name,
      registryName: regName,
      provider,
      api: p.api,
      model,
      baseURL: env[p.baseURLEnv] || p.baseURL,
      apiKeyEnv: p.apiKeyEnv,
      apiKeyOptional: false,
      price: entry?.price ?? null,
      pricesAsOf: entry ? r.pricesAsOf : null,
      temperature: entry?.temperature !== false,
      seed: p.seed,
      maxTokensParam: p.maxTokensParam ?? "max_tokens",
      maxOutputTokens: entry?.maxOutputTokens ?? null,
      concurrency: p.concurrency,
      notes: entry?.notes ?? null,
      // The lifecycle is the entry's own provider's: an open-weights model retired by its maker may
      // still be served through OpenRouter under the same registry name.
      status: own ? entry.status : "active",
      retiresOn: own ? entry.retiresOn : null,
      replacement: own ? (entry.replacement ?? null) : null,
    };
  };

  const reg = registryName(name, r);
  if (reg) {
    const m = r.models[reg]!;
    return fromProvider(m.provider, m.model, m, reg);
  }
  if (name.startsWith("openrouter/")) {
    const rest = name.slice("openrouter/".length);
    const viaAlias = registryName(rest, r);
    const byId = Object.entries(r.models).find(([, m]) => m.openrouter === rest);
    const [regName, entry] = viaAlias ? [viaAlias, r.models[viaAlias]!] : (byId ?? [null, undefined]);
    const id = viaAlias ? entry?.openrouter : rest;
    if (!id?.includes("/"))
      throw new UnknownModelError(
        `unknown model '${name}': openrouter/ takes a registry name or alias (openrouter/claude-sonnet) or an OpenRouter id (openrouter/vendor/model)`,
      );
    return fromProvider("openrouter", id, entry, regName);
  }
  if (name.startsWith("openai-compatible:")) {
    const spec = name.slice("openai-compatible:".length);
    const hash = spec.lastIndexOf("#");
    const baseURL = hash > 0 ? spec.slice(0, hash) : "";
    const model = hash > 0 ? spec.slice(hash + 1) : "";
    if (!/^https?:\/\//.test(baseURL) || !model)
      throw new UnknownModelError(
        `'${name}' is not openai-compatible:<baseURL>#<model>, e.g. openai-compatible:http://127.0.0.1:8000/v1#Qwen/Qwen3-Coder-30B-A3B-Instruct`,
      );
    return {
      name,
      registryName: null,
      provider: "openai-compatible",
      api: "openai",
      model,
      baseURL,
      apiKeyEnv: OPENAI_COMPATIBLE_KEY_ENV,
      apiKeyOptional: true,
      price: null,
      pricesAsOf: null,
      temperature: true,
      seed: true,
      maxTokensParam: "max_tokens",
      maxOutputTokens: null,
      concurrency: null,
      notes: null,
      status: "active",
      retiresOn: null,
      replacement: null,
    };
  }
  const colon = name.indexOf(":");
  if (colon > 0 && r.providers[name.slice(0, colon)] && name.length > colon + 1) {
    const provider = name.slice(0, colon);
    const model = name.slice(colon + 1);
    const entry = Object.entries(r.models).find(([, m]) => m.provider === provider && m.model === model);
    return fromProvider(provider, model, entry?.[1], entry?.[0] ?? null);
  }
  throw new UnknownModelError(unknownModelMessage(name, r));
}

/** Every name `--model` takes from the registry: model names and their aliases. */
export function registryNames(r: Registry = loadRegistry()): string[] {
  return Object.entries(r.models).flatMap(([name, m]) => [name, ...(m.aliases ?? [])]);
}

/**
 * One line for an unknown `--model`: the closest registry name or alias, then every alias (they are
 * what people type) and the other forms a name can take.
 */
function unknownModelMessage(name: string, r: Registry): string {
  const guess = didYouMean(name, ["reference", ...registryNames(r)]);
  const aliases = Object.entries(r.models)
    .filter(([, m]) => m.status !== "retired" && m.aliases?.length)
    .flatMap(([, m]) => m.aliases!);
  return `unknown model '${name}'${guess}; aliases: ${aliases.join(", ")}; or a registry name (src/models/registry.json), reference, scripted:DIR, openrouter/<id>, <provider>:<model-id> (${Object.keys(r.providers).join(", ")}), openai-compatible:<baseURL>#<model>`;
}

/**
 * A one-line judgement of a resolved model's lifecycle before a run: a warning for a deprecated model
 * (with its retirement date and replacement) or for a retired one whose cached answers are replayed
 * (`--cache replay` calls no provider), undefined for an active one.
 * @throws {ModelProviderError} for a retired model called for real, naming its replacement.
 */
export function lifecycleWarning(
  m: ResolvedModel,
  options: { replay?: boolean } = {},
  r: Registry = loadRegistry(),
): string | undefined {
  if (m.status === "active") return undefined;
  const what = `model '${m.name}' (${m.model} on ${m.provider})`;
  const instead = m.replacement ? `; use ${m.replacement}${aliasNote(m.replacement, r)} instead` : "";
  if (m.status === "retired" && options.replay)
    return `${what} was retired${m.retiresOn ? ` on ${m.retiresOn}` : ""}: replaying its cached answers only`;
  if (m.status === "retired")
    throw new ModelProviderError(
      `${what} was retired${m.retiresOn ? ` on ${m.retiresOn}` : ""}${instead} (src/models/registry.json)`,
    );
  return `${what} is deprecated${m.retiresOn ? ` and retires on ${m.retiresOn}` : ""}${instead}`;
}

const aliasNote = (name: string, r: Registry) => {
  const aliases = r.models[name]?.aliases;
  return aliases?.length ? ` (alias ${aliases[0]})` : "";
};
