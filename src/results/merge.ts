/**
 * Merging runs (docs/RUNNING.md "Reports"): shards, epochs and seeds of one model join into one run,
 * different models stay apart, and runs that cannot be compared are refused. Pure: reading the
 * files is src/results/load.ts.
 */
import { BaseError } from "../errors.ts";
import { byInstanceOrder } from "./instanceOrder.ts";
import { summarize } from "./summarize.ts";
import type { InstanceResult, RunManifest, RunResults } from "./types.ts";

/** Raised when runs cannot be read or merged (a file that is not results.json, manifests that disagree, an instance twice). */
export class MergeError extends BaseError {
  override name = "MergeError";
}

/** One results.json as read: the file it came from and its contents. */
export type LoadedRun = { source: string; results: RunResults };

/** The manifest's modes as a short label ("default" when every switch is at the paper's default). */
export function describeModes(modes: RunManifest["modes"]): string {
  if (!modes) return "default";
  const parts = Object.entries(modes)
    .filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => (v === true ? k : `${k}=${v}`));
  return parts.length === 0 ? "default" : parts.join(", ");
}

/**
 * What a run is compared as: its model, marked ` (tools)` under `--protocol tools` (docs/PROTOCOLS.md
 * "Reports"): the protocol is a run setting, so one model under both protocols makes two rows side by side.
 */
export function runLabel(manifest: Pick<RunManifest, "model" | "modes">): string {
  return manifest.modes?.protocol === "tools" ? `${manifest.model} (tools)` : manifest.model;
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
    // The tool protocol is compared side by side (a row of its own, {@link runLabel}), not refused.
    modes: describeModes(m.modes?.protocol === "tools" ? { ...m.modes, protocol: undefined } : m.modes),
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
  for (const run of runs) {
    const label = runLabel(run.results.manifest);
    byModel.set(label, [...(byModel.get(label) ?? []), run]);
  }
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
