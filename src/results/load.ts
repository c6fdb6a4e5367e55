/**
 * Reading results.json files (docs/RUNNING.md "Reports"): the files named, or every results.json
 * below the folders named, each checked to be a QuestBench results.json (schemaVersion 1,
 * src/results/types.ts) before anything is merged or rendered.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type LoadedRun, MergeError } from "./merge.ts";
import type { RunResults } from "./types.ts";

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * The first thing in `value` that makes it no results.json a report can read, as a path and what is
 * wrong (`instances[3].score is not a number`), or undefined. Checks the fields merging and the
 * report rely on: `manifest.model`, `manifest.taskFiles`, and each instance's task id, split, seed,
 * epoch, score and passed.
 */
export function resultsProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "it is not a JSON object";
  if (!isObject(value.manifest)) return "manifest is missing";
  if (typeof value.manifest.model !== "string") return "manifest.model is not a string";
  if (!isObject(value.manifest.taskFiles)) return "manifest.taskFiles is not an object";
  const instances = value.instances as unknown[];
  for (const [n, i] of instances.entries()) {
    const at = `instances[${n}]`;
    if (!isObject(i)) return `${at} is not an object`;
    if (typeof i.taskId !== "string") return `${at}.taskId is not a string`;
    if (i.split !== "atomic" && i.split !== "composite") return `${at}.split is not "atomic" or "composite"`;
    for (const field of ["seed", "epoch", "score"])
      if (typeof i[field] !== "number") return `${at}.${field} is not a number`;
    if (typeof i.passed !== "boolean") return `${at}.passed is not a boolean`;
  }
  return undefined;
}

/**
 * Reads results.json files, or every results.json below the given directories (in name order).
 * @throws {MergeError} naming the path: one that does not exist, none found, a file that is not JSON,
 *   not schemaVersion 1, or not shaped like a results.json (see {@link resultsProblem}).
 */
export function loadRuns(paths: readonly string[]): LoadedRun[] {
  const files: string[] = [];
  const walk = (p: string) => {
    if (!existsSync(p)) throw new MergeError(`No such file or directory: ${p}`);
    if (statSync(p).isDirectory()) {
      for (const entry of readdirSync(p).sort()) {
        const full = path.join(p, entry);
        if (statSync(full).isDirectory()) walk(full);
        else if (entry === "results.json") files.push(full);
      }
    } else files.push(p);
  };
  for (const p of paths) walk(p);
  if (files.length === 0) throw new MergeError(`No results.json found in ${paths.join(", ")}`);
  return files.map((source) => ({ source, results: readResults(source) }));
}

/** One results.json, checked (see {@link loadRuns} for what is refused). */
export function readResults(source: string): RunResults {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(source, "utf8"));
  } catch (error) {
    throw new MergeError(`${source} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value) || value.schemaVersion !== 1 || !Array.isArray(value.instances))
    throw new MergeError(`${source} is not a QuestBench results.json (schemaVersion 1)`);
  const problem = resultsProblem(value);
  if (problem) throw new MergeError(`${source} is not a valid QuestBench results.json: ${problem}`);
  return value as RunResults;
}
