import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ModelProviderError } from "../errors.ts";
import { fillPlaceholders } from "../tasks/placeholders.ts";
import type { ModelClient } from "./types.ts";

/**
 * The `scripted:DIR` model (SPEC.md §7): responses from files — `DIR/<task-id>.md` for atomic tasks,
 * `DIR/<task-id>/plan.md`, `round-1.md`, … for composites — with `{{param}}`, `{{contracts.<key>}}`
 * and `{{agent}}` filled from the instance.
 * @throws {ModelProviderError} at once when DIR is not a readable directory (so a run fails before
 * any chain starts); from `generate`, when the script for a task is missing (a configuration fault).
 */
export function scriptedModel(dir: string): ModelClient {
  const root = path.resolve(dir);
  checkScriptedDir(dir, root);
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

function checkScriptedDir(dir: string, root: string): void {
  let problem: string | undefined;
  try {
    if (!statSync(root).isDirectory()) problem = "is not a directory";
    else accessSync(root, constants.R_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problem = code === "ENOENT" ? "does not exist" : `cannot be read (${code})`;
  }
  if (problem)
    throw new ModelProviderError(
      `scripted:${dir}: ${root} ${problem}; scripted:DIR takes a directory of response files (DIR/<task-id>.md, DIR/<task-id>/plan.md and round-N.md)`,
    );
}
