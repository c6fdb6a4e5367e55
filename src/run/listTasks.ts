import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { applyFlags, optionsFromVariables, parseArgsUsageError, type RunOptions } from "../runOptions.ts";
import { PROJECT_ROOT, type TaskEntry, taskIndex } from "../tasks/files.ts";
import { indexedSelection } from "./plan.ts";

/** One line of `questbench list`: what a task is, read from its task.json without validating it. */
export type TaskListing = {
  id: string;
  /** `atomic` or `composite`. */
  split: string;
  /** `paper` (the paper's 107), `hard` (tasks/hard/README.md) or `custom` (a task pack's, `--tasks-dir`). */
  set: "paper" | "hard" | "custom";
  category: string;
  /** A composite's optimal number of rounds (task.json `optimal_steps`, paper §3.5); null for an atomic task. */
  kOpt: number | null;
  difficulty: string;
};

/**
 * The tasks a run with the same `--split`, `--tasks` and `--tasks-dir` would select (README "Running"),
 * in index order: the package's tasks, then each pack's.
 * @throws {UsageError} for an unknown `--tasks` id (with the closest one) or a split no task has.
 * @throws {TaskSpecError} when two task folders share an id.
 */
export function listTasks(options: Pick<RunOptions, "split" | "tasks" | "tasksDirs">): TaskListing[] {
  return indexedSelection(taskIndex(options.tasksDirs), options).map(listing);
}

function listing(e: TaskEntry): TaskListing {
  let spec: { split?: string; category?: string; difficulty?: string; optimal_steps?: number } = {};
  try {
    spec = JSON.parse(readFileSync(path.resolve(PROJECT_ROOT, e.file), "utf8"));
  } catch {
    // a broken file: listed with what the index knows (`questbench validate` names the problem)
  }
  return {
    id: e.id,
    split: spec.split ?? e.split,
    set: e.pack !== undefined ? "custom" : e.set === "hard" ? "hard" : "paper",
    category: spec.category ?? "—",
    kOpt: typeof spec.optimal_steps === "number" ? spec.optimal_steps : null,
    difficulty: spec.difficulty ?? "—",
  };
}

/** The listing as aligned columns under a header (pure: tested through the CLI). */
export function renderTaskList(tasks: readonly TaskListing[]): string {
  const rows = [
    ["id", "split", "set", "category", "K_opt", "difficulty"],
    ...tasks.map((t) => [
      t.id,
      t.split,
      t.set,
      t.category,
      t.kOpt === null ? "—" : String(t.kOpt),
      t.difficulty,
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/**
 * `questbench list [--split S] [--tasks a,b] [--tasks-dir DIR]…`: one line per task a run with the
 * same flags (and `QUESTBENCH_*` variables) would select, then their count.
 * @throws {UsageError} for a bad flag, an unknown task id or an empty selection.
 */
export function listCommand(argv: string[]): void {
  const flags = ["split", "tasks", "tasks-dir"];
  let values: { split?: string; tasks?: string; "tasks-dir"?: string[] };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        split: { type: "string" },
        tasks: { type: "string" },
        "tasks-dir": { type: "string", multiple: true },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw parseArgsUsageError(error, flags);
  }
  const tasks = listTasks(applyFlags(optionsFromVariables(), values));
  console.log(renderTaskList(tasks));
  console.log(`${tasks.length} task(s)`);
}
