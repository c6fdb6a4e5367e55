import { ModelProviderError } from "../errors.ts";
import { fillPlaceholders } from "../tasks/placeholders.ts";
import type { ModelClient } from "./types.ts";

/**
 * The `reference` model (SPEC.md §7): answers with the gold responses shipped in each task spec
 * (atomic: `reference.response`; composite: `reference.plan`, then `reference.rounds[r − 1]` in
 * round r), placeholders filled from the instance. Every instance must score 100 with it.
 */
export function referenceModel(): ModelClient {
  return {
    id: "reference",
    async generate({ spec, instance, world, step, round }) {
      const gold = spec.reference;
      const text =
        step === "atomic"
          ? gold?.response
          : step === "plan"
            ? gold?.plan
            : (gold?.rounds?.[(round ?? 1) - 1] ?? '```json\n{"submit": true}\n```');
      if (!text)
        throw new ModelProviderError(
          `task ${spec.id} has no reference ${step === "atomic" ? "response" : step}`,
        );
      return { text: fillPlaceholders(text, instance, world) };
    },
  };
}
