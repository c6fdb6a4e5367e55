import { readFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { checkRunModel } from "../../src/models/checkRunModel.ts";
import type { RunOptions } from "../../src/runOptions.ts";
import { loadTasks, PROJECT_ROOT } from "../../src/tasks/load.ts";
import type { AnvilHandle } from "../../src/world/anvil.ts";
import { bootForkInstance, type ForkContext, resolveFork } from "../../src/world/fork/boot.ts";
import { tasksToSkip } from "../../src/world/fork/provision.ts";
import { createAnvilPool } from "../../src/world/pool.ts";
import { loadWorld } from "../../src/world/world.ts";

declare module "vitest" {
  export interface ProvidedContext {
    questbench: RunOptions;
    /** URLs of the Anvil instances booted from the world state for this run. */
    anvilUrls: string[];
    fork: ForkContext | null;
  }
}

/**
 * Boots `--concurrency` Anvil instances from the world state file and hands their URLs to the
 * benchmark tests (SPEC.md §3 "Pool"); stops them when the run ends. With `--fork-url`, each
 * instance is a fork at the pinned block, provisioned by src/world/fork (the first one's world and
 * report are provided as `fork`).
 */
export default async function setup(project: TestProject) {
  const options = project.getProvidedContext().questbench;
  // A missing API key or an unknown model fails here, before any Anvil starts (plain Vitest runs).
  checkRunModel(options);
  let world = loadWorld();
  let boot: (() => Promise<AnvilHandle>) | undefined;
  const spare: AnvilHandle[] = [];
  if (options.forkUrl) {
    const url = options.forkUrl;
    const manifest = await resolveFork({ url, block: options.forkBlock ?? "latest" });
    const first = await bootForkInstance({ url, fork: manifest });
    const forkWorld = first.world;
    world = forkWorld;
    spare.push(first.handle);
    boot = async () =>
      spare.pop() ?? (await bootForkInstance({ url, fork: manifest, expect: forkWorld })).handle;
    const texts = loadTasks().map((t) => ({
      id: t.spec.id,
      // The spec and its gold answer (gold.ts / gold/ sit beside task.json since issue 15).
      text: [
        readFileSync(path.join(PROJECT_ROOT, t.spec.file), "utf8"),
        ...Object.values(t.spec.reference ?? {}).flat(),
      ].join("\n"),
    }));
    const skipped = tasksToSkip(first.report.requirements, texts);
    project.provide("fork", { manifest, world: forkWorld, report: first.report, skipped });
  } else project.provide("fork", null);
  const pool = createAnvilPool({ size: options.concurrency, world, boot });
  try {
    await pool.start();
  } catch (error) {
    await pool.stop();
    await Promise.all(spare.map((handle) => handle.stop()));
    throw error;
  }
  project.provide("anvilUrls", pool.urls);
  return async () => {
    await pool.stop();
    await Promise.all(spare.map((handle) => handle.stop()));
  };
}
