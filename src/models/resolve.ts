import { ModelProviderError } from "../errors.ts";
import { referenceModel } from "./reference.ts";
import { scriptedModel } from "./scripted.ts";
import type { ModelClient } from "./types.ts";

/**
 * Resolves a `--model` name: `reference`, `scripted:DIR`.
 * @throws {ModelProviderError} for an unknown name.
 */
export function resolveModel(name: string): ModelClient {
  if (name === "reference") return referenceModel();
  if (name.startsWith("scripted:")) {
    const dir = name.slice("scripted:".length);
    if (!dir)
      throw new ModelProviderError("scripted: needs a directory, e.g. --model scripted:tests/mutants");
    return scriptedModel(dir);
  }
  throw new ModelProviderError(`unknown model '${name}'`, { details: "Known: reference, scripted:DIR." });
}
