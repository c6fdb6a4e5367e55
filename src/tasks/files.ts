import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readGold } from "./gold.ts";
import type { Split, TaskSpec } from "./types.ts";

// The task folders as files, without validating them: what the CLI and the global setup need (ids,
// splits, hashes) before the run's worker loads the selected tasks with load.ts. Kept free of the
// validators, viem, ethers and ajv so that the questbench process never loads them.

/** The project root (where `tasks/` and `fixtures/` live). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const TASKS_DIR = path.join(PROJECT_ROOT, "tasks");

/** The file naming a task folder: `tasks/<split>/<id>/task.json`. */
export const TASK_FILE = "task.json";

/**
 * Every task spec file below `dir`: each folder holding a `task.json` is one task (its `gold*` and
 * `cases/` are read from there); sorted for a stable order.
 */
export function taskFiles(dir = TASKS_DIR): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    const entries = readdirSync(d, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name === TASK_FILE)) {
      out.push(path.join(d, TASK_FILE));
      return;
    }
    for (const entry of entries) if (entry.isDirectory()) walk(path.join(d, entry.name));
  };
  walk(dir);
  return out.sort();
}

/** sha256 (hex) of what a task is: its task.json bytes and its gold files (`goldFiles`, from readGold). */
export function taskSha256(file: string, bytes: Buffer, goldFiles: readonly string[]): string {
  const folder = path.dirname(file);
  const hash = createHash("sha256").update(bytes);
  for (const f of goldFiles) hash.update(path.relative(folder, f)).update(readFileSync(f));
  return hash.digest("hex");
}

/** A task folder as the file system and its JSON say, unvalidated (see {@link taskIndex}). */
export type TaskEntry = {
  id: string;
  /** The folder's parent for the paper's tasks; task.json's `split` for the hard split. */
  split: Split | string;
  set: "paper" | "hard";
  /** Relative to the project root, as `LoadedTaskSpec.file`. */
  file: string;
  /** As `LoadedTaskSpec.sha256`; undefined when task.json is not JSON (load.ts names the error). */
  sha256: string | undefined;
};

/**
 * Every task folder below `dir` with its id (the folder name), split, set and hash, read without
 * validation: enough to check `--tasks` and `--split`, size the Anvil pool and write the manifest's
 * task hashes. Whether a task's spec is valid is load.ts's business (the run's worker loads the
 * selected ones and refuses a broken one).
 */
export function taskIndex(dir = TASKS_DIR): TaskEntry[] {
  return taskFiles(dir).map((file) => {
    const folder = path.dirname(file);
    const parent = path.basename(path.dirname(folder));
    const bytes = readFileSync(file);
    let spec: Partial<TaskSpec> = {};
    try {
      spec = JSON.parse(bytes.toString("utf8"));
    } catch {}
    const set = parent === "hard" ? "hard" : "paper";
    const split = set === "hard" ? String(spec.split) : parent;
    // Hashed on first read: a run's worker indexes every folder to resolve its selection but needs
    // the hashes of the selected tasks only (reading every gold file cost each worker ~50 ms).
    let sha256: string | undefined | null = null;
    const hash = () => {
      if (sha256 === null) {
        const gold =
          spec.split === "atomic" || spec.split === "composite" ? readGold(folder, spec.split) : null;
        sha256 = gold ? taskSha256(file, bytes, gold.files) : undefined;
      }
      return sha256;
    };
    const entry = { id: path.basename(folder), split, set, file: path.relative(PROJECT_ROOT, file) };
    return Object.defineProperty(entry, "sha256", { get: hash, enumerable: true }) as TaskEntry;
  });
}
