import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ModelProviderError } from "../errors.ts";
import { fillPlaceholders } from "../tasks/placeholders.ts";
import type { ModelClient } from "./types.ts";

/**
 * The `scripted:DIR` model (SPEC.md §7): responses from files — `DIR/<task-id>.md` for atomic tasks,
 * `DIR/<task-id>/plan.md`, `round-1.md`, … for composites — with `{{param}}`, `{{contracts.<key>}}`
 * and `{{agent}}` filled from the instance.
 * @throws {ModelProviderError} when the script for a task is missing (a configuration fault).
 */
export function scriptedModel(dir: string): ModelClient {
  const root = path.resolve(dir);
  return {
    id: `scripted:${dir}`,
    async generate({ spec, instance, world, step, round }) {
      const file =
        step === "atomic"
          ? path.join(root, `${spec.id}.md`)
          : path.join(root, spec.id, step === "plan" ? "plan.md" : `round-${round}.md`);
      if (!existsSync(file))
        throw new ModelProviderError(
          `scripted model: no response file ${path.relative(process.cwd(), file)}`,
        );
      return { text: fillPlaceholders(readFileSync(file, "utf8"), instance, world) };
    },
  };
}
