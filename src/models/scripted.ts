import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ModelProviderError } from "../errors.ts";
import { fillPlaceholders } from "../tasks/placeholders.ts";
import { NoAnswerError } from "./errors.ts";
import type { ModelClient } from "./types.ts";

/**
 * The `scripted:DIR` model (README "Scripted models"): responses from files — `DIR/<task-id>.md` for atomic tasks,
 * `DIR/<task-id>/plan.md`, `round-1.md`, … for composites — with `{{param}}`, `{{contracts.<key>}}`
 * and `{{agent}}` filled from the instance.
 * @throws {ModelProviderError} at once when DIR is not a readable directory (so a run fails before
 * any chain starts); {@link NoAnswerError} from `generate` when the file for a request is missing
 * (the instance is scored as no answer; {@link missingScriptedAnswers} finds them before a run).
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
        throw new NoAnswerError(`scripted:${dir} has no response file ${path.relative(root, file)}`);
      return { text: fillPlaceholders(readFileSync(file, "utf8"), instance, world) };
    },
  };
}

/**
 * The tasks a `scripted:DIR` model cannot even start: an atomic task without `DIR/<id>.md`, a
 * composite without `DIR/<id>/plan.md` or `round-1.md`. Later rounds are read as the attempt goes.
 * @returns the missing files' paths relative to DIR, by task id (absent: the task has its files).
 */
export function missingScriptedAnswers(
  dir: string,
  tasks: readonly { id: string; split: string }[],
): Map<string, string[]> {
  const root = path.resolve(dir);
  const missing = new Map<string, string[]>();
  for (const task of tasks) {
    const files =
      task.split === "composite"
        ? [path.join(task.id, "plan.md"), path.join(task.id, "round-1.md")]
        : [`${task.id}.md`];
    const absent = files.filter((f) => !existsSync(path.join(root, f)));
    if (absent.length > 0) missing.set(task.id, absent);
  }
  return missing;
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
