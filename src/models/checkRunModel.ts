import { ModelProviderError } from "../errors.ts";
import { resolveModelName } from "./registry.ts";
import { isLocalModel, resolveModel } from "./resolve.ts";
import type { ModelOptions } from "./settings.ts";

/**
 * Checks, before any chain starts, that a run's model can be called: the name resolves and its API key
 * is set (not needed with `--cache replay`), and `--budget` has a price to project with.
 * @throws {ModelProviderError} a one-line error naming what is missing (e.g. the key's variable).
 */
export function checkRunModel(
  options: ModelOptions & { model: string; budget?: number | undefined },
  env: NodeJS.ProcessEnv = process.env,
): void {
  resolveModel(options.model, options, env);
  if (options.budget === undefined) return;
  if (isLocalModel(options.model) || !resolveModelName(options.model, env).price)
    throw new ModelProviderError(
      `--budget needs a model with a price in src/models/registry.json; '${options.model}' has none`,
    );
}
