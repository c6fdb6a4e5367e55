import { ModelProviderError } from "../errors.ts";
import { modelIdentity } from "./identity.ts";
import { providerModel } from "./providerModel.ts";
import { referenceModel } from "./reference.ts";
import { type ResolvedModel, resolveModelName } from "./registry.ts";
import { scriptedModel } from "./scripted.ts";
import { type ModelOptions, modelSettings } from "./settings.ts";
import type { ModelClient } from "./types.ts";

/** True for the models that run locally without a provider (`reference`, `scripted:DIR`). */
export function isLocalModel(name: string): boolean {
  return name === "reference" || name.startsWith("scripted:");
}

/**
 * A provider model name resolved for a run: {@link resolveModelName}, with the run's own price
 * (`--price-in`/`--price-out`, USD per million tokens) in place of the registry's, and the cache's
 * endpoint name (`--name`, src/models/identity.ts).
 * @throws {UnknownModelError} for a name that is no provider model.
 */
export function resolveProviderModel(
  name: string,
  options: ModelOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedModel {
  const m = resolveModelName(name, env);
  return {
    ...m,
    ...(options.price ? { price: options.price, pricesAsOf: null } : {}),
    ...(options.name ? { endpointName: options.name } : {}),
  };
}

/**
 * Resolves a `--model` name: `reference`, `scripted:DIR`, or a provider model (a registry alias such as
 * `claude-sonnet`, `openrouter/<id>`, `<provider>:<model-id>`, `openai-compatible:<baseURL>#<model>`;
 * see registry.ts) called with `options`' sampling, cache and retry settings.
 * @throws {ModelProviderError} for an unknown name or a provider model whose API key is not set.
 */
export function resolveModel(
  name: string,
  options: ModelOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ModelClient {
  const client = (() => {
    if (name === "reference") return referenceModel();
    if (name.startsWith("scripted:")) {
      const dir = name.slice("scripted:".length);
      if (!dir) throw new ModelProviderError("scripted: needs a directory, e.g. --model scripted:my-answers");
      return scriptedModel(dir);
    }
    return providerModel(resolveProviderModel(name, options, env), modelSettings(options, env), env);
  })();
  // Results name the model by its identity (a local endpoint without its port, or --name).
  return { ...client, id: modelIdentity(name, options.name) };
}
