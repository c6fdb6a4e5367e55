/**
 * The output folder's files (docs/RUNNING.md "The output folder"): `instances.jsonl`, one JSON line
 * per finished instance, appended as each finishes so that a crash keeps every finished result, and
 * `results.json`, the whole run (src/results/types.ts `RunResults`). The results recorder
 * (src/results/recorder.ts) writes them; resume and the next run read them back here.
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { instanceKey } from "./instanceOrder.ts";
import type { InstanceResult, RunResults } from "./types.ts";

export const INSTANCES_FILE = "instances.jsonl";
export const RESULTS_FILE = "results.json";

/** The parsed lines of `<outDir>/instances.jsonl` in file order; lines cut short by a kill are left out. */
function instanceLines(outDir: string): InstanceResult[] {
  let text: string;
  try {
    text = readFileSync(path.join(outDir, INSTANCES_FILE), "utf8");
  } catch {
    return [];
  }
  const lines: InstanceResult[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      lines.push(JSON.parse(line) as InstanceResult);
    } catch {
      // a line cut short by a kill
    }
  }
  return lines;
}

/**
 * The finished results of earlier invocations in `<outDir>/instances.jsonl`, by resume key (what a
 * rerun keeps, docs/RUNNING.md "The output folder"). Later lines win; results with a
 * `provider_error` or an `infra_error` are left out (they are retried), and so are lines without a
 * key and a last line cut short by a kill. An absent file reads as no result.
 */
export function readFinished(outDir: string): Map<string, InstanceResult> {
  const finished = new Map<string, InstanceResult>();
  for (const result of instanceLines(outDir)) {
    if (!result.resumeKey) continue;
    if (result.failure?.class === "provider_error" || result.failure?.class === "infra_error")
      finished.delete(result.resumeKey);
    else finished.set(result.resumeKey, result);
  }
  return finished;
}

/**
 * Every instance recorded in `<outDir>/instances.jsonl`, the latest line of each (task, seed, epoch),
 * provider and infrastructure errors included (they stay in the folder's results until a run retries
 * them); lines cut short by a kill are left out. `resumed` is dropped: it describes a run, not a result.
 */
export function readFolder(outDir: string): InstanceResult[] {
  const latest = new Map<string, InstanceResult>();
  for (const { resumed: _, ...result } of instanceLines(outDir)) latest.set(instanceKey(result), result);
  return [...latest.values()];
}

/**
 * Appends one finished result to `<outDir>/instances.jsonl` (creating the folder), one JSON line,
 * synchronously: a crash after it returns keeps the result.
 */
export function appendInstance(outDir: string, result: InstanceResult): void {
  const file = path.join(outDir, INSTANCES_FILE);
  mkdirSync(outDir, { recursive: true });
  appendFileSync(file, `${JSON.stringify(result)}\n`);
}

/**
 * Writes `<outDir>/results.json` (two-space JSON and a final newline) through a temporary file
 * renamed over it, so a kill while writing leaves the previous results.json whole.
 */
export function writeResultsFile(outDir: string, results: RunResults): void {
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, RESULTS_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/**
 * Rewrites `<outDir>/instances.jsonl` to one line per instance (earlier lines of retried or stale
 * instances dropped, `resumed` left out), through a temporary file renamed over it, so a kill
 * leaves either the old file or the new one.
 */
export function rewriteInstances(outDir: string, instances: readonly InstanceResult[]): void {
  const file = path.join(outDir, INSTANCES_FILE);
  writeFileSync(`${file}.tmp`, instances.map(({ resumed: _, ...i }) => `${JSON.stringify(i)}\n`).join(""));
  renameSync(`${file}.tmp`, file);
}
