import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { BaseError } from "../errors.ts";
import type { InstanceResult, RunManifest, RunResults } from "../results/types.ts";
import { summarize } from "./summary.ts";

/** Raised when runs cannot be merged (their manifests disagree, or an instance appears twice). */
export class MergeError extends BaseError {
  override name = "MergeError";
}

export type LoadedRun = { source: string; results: RunResults };

/** Reads results.json files, or every results.json below the given directories. */
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
  return files.map((source) => {
    const results = JSON.parse(readFileSync(source, "utf8")) as RunResults;
    if (results.schemaVersion !== 1 || !Array.isArray(results.instances))
      throw new MergeError(`${source} is not a QuestBench results.json (schemaVersion 1)`);
    return { source, results };
  });
}

/** The manifest's modes as a short label ("default" when every switch is at the paper's default). */
export function describeModes(modes: RunManifest["modes"]): string {
  if (!modes) return "default";
  const parts = Object.entries(modes)
    .filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => (v === true ? k : `${k}=${v}`));
  return parts.length === 0 ? "default" : parts.join(", ");
}

/** results.json's instance order: the paper's tasks, then the hard split; atomic, composite; task id, seed, epoch. */
export function byInstanceOrder(a: InstanceResult, b: InstanceResult): number {
  const order = (i: InstanceResult) =>
    `${i.set === "hard" ? 1 : 0}/${i.split === "atomic" ? 0 : 1}/${i.taskId}/${String(i.seed).padStart(6, "0")}/${String(i.epoch).padStart(4, "0")}`;
  return order(a).localeCompare(order(b));
}

/** One model's merged run: its shards, seeds and epochs joined. */
export type MergedRun = { model: string; manifest: RunManifest; sources: string[]; results: RunResults };

/** Manifest fields that make two runs incomparable when they differ. */
function comparableFields(m: RunManifest): Record<string, unknown> {
  const fork = (
    m as RunManifest & { fork?: { chainId?: number; blockNumber?: number | string; blockHash?: string } }
  ).fork;
  return {
    worldId: m.worldId,
    chainId: m.chainId,
    "fork.blockNumber": fork?.blockNumber ?? null,
    "fork.blockHash": fork?.blockHash ?? null,
    modes: describeModes(m.modes),
  };
}

/**
 * Merges runs: shards and epochs of one model join into one run; different models stay apart.
 * Refuses (unless `force`) runs whose manifests disagree on the world, the fork block or the version
 * (file hash) of a task both ran, naming the field; and an instance (model, task, seed, epoch) that
 * appears in two inputs; and models whose merged runs cover different task sets (a model run on 6
 * tasks would otherwise rank above one run on 3) or ran in different modes.
 */
export function mergeRuns(
  runs: readonly LoadedRun[],
  options: { force?: boolean } = {},
): { merged: MergedRun[]; warnings: string[] } {
  const warnings: string[] = [];
  const problem = (message: string) => {
    if (!options.force) throw new MergeError(message, { details: "Pass --force to merge anyway." });
    warnings.push(message);
  };
  const [first, ...rest] = runs;
  if (!first) return { merged: [], warnings };
  const base = comparableFields(first.results.manifest);
  const taskHashes = new Map(Object.entries(first.results.manifest.taskFiles));
  for (const run of rest) {
    const fields = comparableFields(run.results.manifest);
    for (const [field, value] of Object.entries(fields))
      if (JSON.stringify(value) !== JSON.stringify(base[field]))
        problem(
          `manifest.${field} differs: ${JSON.stringify(base[field])} in ${first.source}, ${JSON.stringify(value)} in ${run.source}`,
        );
    for (const [file, hash] of Object.entries(run.results.manifest.taskFiles)) {
      const other = taskHashes.get(file);
      if (other === undefined) taskHashes.set(file, hash);
      else if (other !== hash)
        problem(
          `manifest.taskFiles["${file}"] differs between ${first.source} and ${run.source} (the task changed)`,
        );
    }
  }
  const byModel = new Map<string, LoadedRun[]>();
  for (const run of runs)
    byModel.set(run.results.manifest.model, [...(byModel.get(run.results.manifest.model) ?? []), run]);
  const merged: MergedRun[] = [];
  for (const [model, group] of byModel) {
    const seen = new Map<string, string>();
    const instances: InstanceResult[] = [];
    for (const run of group)
      for (const instance of run.results.instances) {
        const key = `${instance.taskId} seed ${instance.seed} epoch ${instance.epoch}`;
        const earlier = seen.get(key);
        if (earlier) {
          problem(`instance ${key} of ${model} appears in ${earlier} and ${run.source}`);
          continue;
        }
        seen.set(key, run.source);
        instances.push(instance);
      }
    instances.sort(byInstanceOrder);
    const manifest: RunManifest = {
      ...group[0]!.results.manifest,
      taskFiles: Object.assign({}, ...group.map((g) => g.results.manifest.taskFiles)),
      epochs: Math.max(...group.map((g) => g.results.manifest.epochs)),
    };
    merged.push({
      model,
      manifest,
      sources: group.map((g) => g.source),
      results: { schemaVersion: 1, manifest, summary: summarize(instances), instances },
    });
  }
  const [head, ...others] = merged;
  if (head) {
    const ids = (r: MergedRun) => [...new Set(r.results.instances.map((i) => i.taskId))].sort();
    const headIds = ids(head);
    for (const other of others) {
      const otherIds = ids(other);
      const missing = headIds.filter((id) => !otherIds.includes(id));
      const extra = otherIds.filter((id) => !headIds.includes(id));
      if (missing.length > 0 || extra.length > 0)
        problem(
          `task sets differ: ${head.model} ran ${headIds.length} tasks, ${other.model} ran ${otherIds.length}` +
            `${missing.length ? `; ${other.model} lacks ${list(missing)}` : ""}${extra.length ? `; ${head.model} lacks ${list(extra)}` : ""}`,
        );
    }
  }
  return { merged, warnings };
}

const list = (xs: string[]) =>
  xs.length <= 3 ? xs.join(", ") : `${xs.slice(0, 3).join(", ")} and ${xs.length - 3} more`;
