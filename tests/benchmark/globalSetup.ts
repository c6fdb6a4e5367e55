import type { TestProject } from "vitest/node";
import { checkRunModel } from "../../src/models/checkRunModel.ts";
import type { RunOptions } from "../../src/runOptions.ts";
import { createAnvilPool } from "../../src/world/pool.ts";
import { loadWorld } from "../../src/world/world.ts";

declare module "vitest" {
  export interface ProvidedContext {
    questbench: RunOptions;
    /** URLs of the Anvil instances booted from the world state for this run. */
    anvilUrls: string[];
  }
}

/**
 * Boots `--concurrency` Anvil instances from the world state file and hands their URLs to the
 * benchmark tests (SPEC.md §3 "Pool"); stops them when the run ends.
 */
export default async function setup(project: TestProject) {
  const options = project.getProvidedContext().questbench;
  // A missing API key or an unknown model fails here, before any Anvil starts (plain Vitest runs).
  checkRunModel(options);
  const pool = createAnvilPool({ size: options.concurrency, world: loadWorld() });
  await pool.start();
  project.provide("anvilUrls", pool.urls);
  return async () => {
    await pool.stop();
  };
}
