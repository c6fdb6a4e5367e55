import { ModelProviderError } from "../errors.ts";
import { fillPlaceholders } from "../tasks/placeholders.ts";
import type { ModelClient } from "./types.ts";

/**
 * The `reference` model (SPEC.md §7): answers with the gold response shipped in each task spec,
 * placeholders filled from the instance. Every instance must score 100 with it.
 */
export function referenceModel(): ModelClient {
  return {
    id: "reference",
    async generate({ spec, instance, world }) {
      if (!spec.reference) throw new ModelProviderError(`task ${spec.id} has no reference response`);
      return { text: fillPlaceholders(spec.reference.response, instance, world) };
    },
  };
}
