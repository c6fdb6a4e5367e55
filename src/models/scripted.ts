import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ModelProviderError } from "../errors.ts";
import { fillPlaceholders } from "../tasks/placeholders.ts";
import { NoAnswerError } from "./errors.ts";
import type { ModelClient, ModelResponse } from "./types.ts";

/**
 * The `scripted:DIR` model (README "Scripted models"): responses from files — `DIR/<task-id>.md` for atomic tasks,
 * `DIR/<task-id>/plan.md`, `round-1.md`, … for composites — with `{{param}}`, `{{contracts.<key>}}`
 * and `{{agent}}` filled from the instance. Under `--protocol tools`, `DIR/<task-id>.tools.json`: a JSON
 * array of turns, each an array of tool calls `{ "name", "arguments" }` (`arguments` an object, or a
 * string sent as is, so a malformed call can be scripted); past the last turn the model calls no tool.
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
      if (step === "turn")
        return scriptedTurn(root, dir, spec.id, round ?? 1, (t) => fillPlaceholders(t, instance, world));
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
 * composite without `DIR/<id>/plan.md` or `round-1.md` (under `--protocol tools`: any task without
 * `DIR/<id>.tools.json`). Later rounds are read as the attempt goes.
 * @returns the missing files' paths relative to DIR, by task id (absent: the task has its files).
 */
export function missingScriptedAnswers(
  dir: string,
  tasks: readonly { id: string; split: string }[],
  protocol?: "paper" | "tools" | undefined,
): Map<string, string[]> {
  const root = path.resolve(dir);
  const missing = new Map<string, string[]>();
  for (const task of tasks) {
    const files =
      protocol === "tools"
        ? [`${task.id}.tools.json`]
        : task.split === "composite"
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

/**
 * One turn of a scripted tool conversation (`DIR/<task-id>.tools.json`, placeholders filled).
 * @throws {NoAnswerError} when the file is missing; {@link ModelProviderError} when it is not an array of turns.
 */
function scriptedTurn(
  root: string,
  dir: string,
  taskId: string,
  turn: number,
  fill: (text: string) => string,
): ModelResponse {
  const file = path.join(root, `${taskId}.tools.json`);
  if (!existsSync(file))
    throw new NoAnswerError(`scripted:${dir} has no tool-call file ${taskId}.tools.json`);
  let turns: unknown;
  try {
    turns = JSON.parse(fill(readFileSync(file, "utf8")));
  } catch (error) {
    throw new ModelProviderError(
      `scripted:${dir}: ${taskId}.tools.json is not JSON (${(error as Error).message})`,
    );
  }
  if (!Array.isArray(turns) || !turns.every((t) => Array.isArray(t)))
    throw new ModelProviderError(
      `scripted:${dir}: ${taskId}.tools.json must be an array of turns, each an array of { name, arguments }`,
    );
  const calls = (turns[turn - 1] ?? []) as { name?: unknown; arguments?: unknown }[];
  return {
    text: "",
    toolCalls: calls.map((c, i) => ({
      id: `call-${turn}-${i + 1}`,
      name: String(c.name ?? ""),
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
    })),
  };
}
