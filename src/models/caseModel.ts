import { ModelProviderError } from "../errors.ts";
import { caseResponse, type TaskCase } from "../tasks/cases.ts";
import { fillPlaceholders } from "../tasks/placeholders.ts";
import type { ModelClient } from "./types.ts";

/**
 * A model that answers with one case's files (tasks/README.md "Writing a task, from zero to proven"), placeholders filled, as
 * `scripted:` does: the atomic response, or the composite conversation's plan and rounds.
 * @throws {ModelProviderError} when the conversation asks for a round the case has no file for.
 */
export function caseModel(c: TaskCase): ModelClient {
  return {
    id: `case:${c.name}`,
    async generate({ instance, world, step, round }) {
      if (step === "turn")
        throw new ModelProviderError(`case ${c.path}: cases answer modules, not tool calls`);
      const text = caseResponse(c, step, round);
      if (text === undefined)
        throw new ModelProviderError(`case ${c.path}: no response for ${step} ${round ?? ""}`.trim());
      return { text: fillPlaceholders(text, instance, world) };
    },
  };
}
