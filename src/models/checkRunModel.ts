import { ModelFlagError, ModelProviderError } from "../errors.ts";
import { lifecycleWarning } from "./registry.ts";
import { isLocalModel, resolveModel, resolveProviderModel } from "./resolve.ts";
import type { ModelOptions } from "./settings.ts";

/**
 * Checks, before any chain starts, that a run's model can be called: the name resolves, the model is
 * not retired (unless only its cache is replayed), its API key is set (not needed with `--cache replay`), `--budget` has a price to
 * project with (the registry's or `--price-in`/`--price-out`), and a `scripted:DIR` directory exists.
 * @returns one-line warnings to print before the run (a deprecated model's retirement date and replacement).
 * @throws {ModelProviderError} a one-line error naming what is missing (e.g. the key's variable) or,
 * for a retired model, its replacement.
 */
export function checkRunModel(
  options: ModelOptions & { model: string; budget?: number | undefined },
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const local = isLocalModel(options.model);
  const resolved = local ? null : resolveProviderModel(options.model, options, env);
  const warning = resolved ? lifecycleWarning(resolved, { replay: options.cache === "replay" }) : undefined;
  resolveModel(options.model, options, env);
  if (options.price && local)
    throw new ModelFlagError(
      `--price-in/--price-out price a provider model's tokens; '${options.model}' calls no provider`,
    );
  if (options.budget !== undefined && local)
    throw new ModelFlagError(
      `--budget limits what a provider model spends: '${options.model}' calls no provider and costs nothing`,
    );
  if (options.budget !== undefined && !resolved?.price)
    throw new ModelProviderError(
      `--budget needs a model with a price: '${options.model}' has none in src/models/registry.json; give one with --price-in and --price-out (USD per million tokens)`,
    );
  return warning ? [warning] : [];
}
