import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { modelIdentity } from "../models/identity.ts";
import { effectiveSampling } from "../models/providerModel.ts";
import { isLocalModel, resolveProviderModel } from "../models/resolve.ts";
import { modelSettings } from "../models/settings.ts";
import { type RunOptions, runSplit } from "../runOptions.ts";
import { PROJECT_ROOT, type TaskEntry, taskIndex } from "../tasks/files.ts";
import { anvilBinaryPath } from "../world/anvil.ts";
import type { ForkContext } from "../world/fork/boot.ts";
import type { ForkRecord, RunManifest } from "./types.ts";

function gitCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "ignore"],
    })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

function anvilVersion(): string {
  try {
    return execFileSync(anvilBinaryPath(), ["--version"]).toString().split("\n")[0]!.trim();
  } catch {
    return "unknown";
  }
}

/**
 * The task files and their sha256, by path (the manifest's `taskFiles`), read without loading the
 * validators (src/tasks/files.ts); a task.json that is not JSON is left out.
 */
export const taskFileHashes = (tasks: readonly TaskEntry[] = taskIndex()) =>
  Object.fromEntries(tasks.flatMap((t) => (t.sha256 ? [[t.file, t.sha256] as const] : [])));

/** results.json `manifest.fork` from the fork the global setup provisioned. */
export function forkRecord(fork: ForkContext): ForkRecord {
  return {
    ...fork.manifest,
    slots: fork.report.slots,
    unprovisioned: fork.report.requirements.filter((r) => !r.ok).map((r) => ({ id: r.id, detail: r.detail })),
    timings: fork.report.timings,
  };
}

/**
 * The run manifest of results.json: what a reader needs to reproduce or compare the run. Installs
 * nothing: `sandbox` is what the caller (the global setup) installed.
 * @param fork fork mode only: the pinned block, redacted URL and what provisioning found.
 */
export function buildManifest(
  options: RunOptions,
  world: { worldId: string; chainId: number },
  sandbox: NonNullable<RunManifest["sandbox"]>,
  taskFiles: Record<string, string>,
  fork?: ForkRecord | undefined,
): RunManifest {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  return {
    packageVersion: pkg.version,
    gitCommit: gitCommit(),
    seed: options.seed,
    epochs: options.epochs,
    model: modelIdentity(options.model, options.name),
    split: runSplit(options),
    taskFiles,
    anvilVersion: anvilVersion(),
    worldId: world.worldId,
    chainId: world.chainId,
    nodeVersion: process.version,
    startedAt: new Date().toISOString(),
    ...(fork ? { fork } : {}),
    ...(options.modes ? { modes: options.modes } : {}),
    ...(options.tasksDirs?.length ? { taskPacks: options.tasksDirs } : {}),
    sandbox,
    ...providerManifest(options),
  };
}

/** The manifest fields of a provider model: where it was called, the sampling settings sent, cache and retries. */
function providerManifest(options: RunOptions): Partial<RunManifest> {
  if (isLocalModel(options.model)) return {};
  let model: ReturnType<typeof resolveProviderModel>;
  try {
    model = resolveProviderModel(options.model, options);
  } catch {
    return {};
  }
  const settings = modelSettings(options);
  return {
    provider: {
      name: model.provider,
      api: model.api,
      modelId: model.model,
      baseURL: model.baseURL,
      price: model.price,
      pricesAsOf: model.pricesAsOf,
    },
    sampling: effectiveSampling(model, settings.sampling),
    modelCalls: {
      cache: settings.cache,
      cacheDir: settings.cacheDir,
      maxRetries: settings.maxRetries,
      timeoutMs: settings.timeoutMs,
      budgetUsd: options.budget ?? null,
      providerConcurrency: settings.providerConcurrency ?? model.concurrency,
    },
  };
}
