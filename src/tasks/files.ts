import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TaskSpecError } from "../errors.ts";
import { readGold } from "./gold.ts";
import type { Split, TaskSpec } from "./types.ts";

// The task folders as files, without validating them: what the CLI and the global setup need (ids,
// splits, hashes) before the run's worker loads the selected tasks with load.ts. Kept free of the
// validators, viem, ethers and ajv so that the questbench process never loads them.

/** The project root (where `tasks/` and `fixtures/` live). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const TASKS_DIR = path.join(PROJECT_ROOT, "tasks");

/**
 * Where the harness keeps its own caches (the compiled task schema, Vitest's module cache): the
 * checkout's `.questbench/`, or, for the installed package (inside a node_modules folder), the
 * working directory's, beside the default results folder: an installed package's folder may not be
 * writable (a global install by root), and a run should not change what npm installed.
 */
export function stateDir(): string {
  return installedAsDependency() ? path.resolve(".questbench") : path.join(PROJECT_ROOT, ".questbench");
}

/** True when this package is an installed dependency (its folder lies inside a node_modules folder). */
export const installedAsDependency = () => PROJECT_ROOT.split(path.sep).includes("node_modules");

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
  /**
   * As `LoadedTaskSpec.file`: relative to the project root for the package's tasks, absolute for a
   * task pack's.
   */
  file: string;
  /** The task pack (`--tasks-dir`, absolute) the task comes from; undefined for the package's tasks/. */
  pack?: string | undefined;
  /** As `LoadedTaskSpec.sha256`; undefined when task.json is not JSON (load.ts names the error). */
  sha256: string | undefined;
};

/** The folders of a task bank's layout (tasks/README.md): a task below one of them belongs to it. */
export const LAYOUT_FOLDERS = ["atomic", "composite", "hard"] as const;

/**
 * Where a task's folder says it belongs: `atomic/`, `composite/` (the paper's splits) or `hard/`. In a
 * task pack a task folder anywhere else (directly in the pack, or in a folder of the author's own)
 * says nothing (undefined), and its task.json's `split` and `set` decide.
 */
export function layoutFolder(taskFile: string, pack?: string): string | undefined {
  const parent = path.basename(path.dirname(path.dirname(taskFile)));
  return pack === undefined || (LAYOUT_FOLDERS as readonly string[]).includes(parent) ? parent : undefined;
}

/**
 * Every task folder of a run with its id (the folder name), split, set and hash, read without
 * validation: enough to check `--tasks` and `--split`, size the Anvil pool and write the manifest's
 * task hashes. The package's `tasks/` comes first, then each task pack (`--tasks-dir`, README "Write
 * your own task") in the given order. Whether a task's spec is valid is load.ts's business (the run's
 * worker loads the selected ones and refuses a broken one).
 * @throws {TaskSpecError} (one line) when two folders share a task id: a pack cannot replace or
 *   shadow a task of the package or of another pack.
 */
export function taskIndex(packs: readonly string[] = [], dir = TASKS_DIR): TaskEntry[] {
  const entries = [
    ...indexFolder(dir, undefined),
    ...packs.flatMap((pack) => indexFolder(path.resolve(pack), path.resolve(pack))),
  ];
  const seen = new Map<string, string>();
  for (const e of entries) {
    const other = seen.get(e.id);
    if (other)
      throw new TaskSpecError(e.file, "id", `duplicate id '${e.id}' (also in ${other})`, {
        docsPath: undefined,
      });
    seen.set(e.id, e.file);
  }
  return entries;
}

function indexFolder(dir: string, pack: string | undefined): TaskEntry[] {
  return taskFiles(dir).map((file) => {
    const folder = path.dirname(file);
    const bytes = readFileSync(file);
    let spec: Partial<TaskSpec> = {};
    try {
      spec = JSON.parse(bytes.toString("utf8"));
    } catch {}
    const parent = layoutFolder(file, pack);
    const set =
      parent === undefined ? (spec.set === "hard" ? "hard" : "paper") : parent === "hard" ? "hard" : "paper";
    const split = set === "hard" || parent === undefined ? String(spec.split) : parent;
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
    const entry = {
      id: path.basename(folder),
      split,
      set,
      file: pack === undefined ? path.relative(PROJECT_ROOT, file) : file,
      ...(pack === undefined ? {} : { pack }),
    };
    return Object.defineProperty(entry, "sha256", { get: hash, enumerable: true }) as TaskEntry;
  });
}
