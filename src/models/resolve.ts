import { ModelProviderError } from "../errors.ts";
import { providerModel } from "./providerModel.ts";
import { referenceModel } from "./reference.ts";
import { resolveModelName } from "./registry.ts";
import { scriptedModel } from "./scripted.ts";
import { type ModelOptions, modelSettings } from "./settings.ts";
import type { ModelClient } from "./types.ts";

/** True for the models that run locally without a provider (`reference`, `scripted:DIR`). */
export function isLocalModel(name: string): boolean {
  return name === "reference" || name.startsWith("scripted:");
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
  if (name === "reference") return referenceModel();
  if (name.startsWith("scripted:")) {
    const dir = name.slice("scripted:".length);
    if (!dir) throw new ModelProviderError("scripted: needs a directory, e.g. --model scripted:my-answers");
    return scriptedModel(dir);
  }
  return providerModel(resolveModelName(name, env), modelSettings(options, env), env);
}
