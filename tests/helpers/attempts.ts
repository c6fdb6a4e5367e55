import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { resolveModel } from "../../src/models/resolve.ts";
import type { ModelClient } from "../../src/models/types.ts";
import { runAttempt } from "../../src/protocol/attempt.ts";
import type { InstanceResult, RunModes } from "../../src/results/types.ts";
import { instantiate } from "../../src/tasks/instantiate.ts";
import { type LoadedTask, loadTasks } from "../../src/tasks/load.ts";
import { type AnvilPool, createAnvilPool } from "../../src/world/pool.ts";
import { loadWorld } from "../../src/world/world.ts";

export const world = loadWorld();
const loaded = loadTasks();
// A broken task file fails every suite that uses this helper, naming file:line:column: a test run
// must not silently skip it.
if (loaded.broken.length > 0) throw loaded.broken[0]!.error;
export const tasks: LoadedTask[] = loaded;
export const taskById = new Map(tasks.map((t) => [t.spec.id, t]));

/**
 * The effect check's gold runs, kept for this test process only (a fresh folder: no run of older
 * code is ever read back). Cases and mutants of one task and seed share one gold run, as a run's
 * instances do across reruns (docs/SCORING.md "Effect ledger").
 */
export const goldCache = {
  dir: mkdtempSync(path.join(tmpdir(), "qb-gold-")),
  codeSha256: "this test process",
};

/**
 * Boots a pool of world Anvils for the calling test file and returns `attempt(taskId, model, seed)`,
 * which runs one real attempt (atomic or composite) (sandbox, guard, signing, checks) on a leased
 * instance, in the run `modes` given (default none).
 */
export function useAttempts(size = 2) {
  let pool: AnvilPool;
  beforeAll(async () => {
    pool = createAnvilPool({ size, world });
    await pool.start();
  });
  afterAll(async () => {
    await pool?.stop();
  });
  return async function attempt(
    taskId: string,
    model: string | ModelClient,
    seed = 1,
    epoch = 0,
    modes?: RunModes,
  ): Promise<InstanceResult> {
    const task = taskById.get(taskId);
    if (!task) throw new Error(`no task ${taskId}`);
    const instance = await instantiate(task.spec, { runSeed: seed, epoch, world });
    const lease = await pool.lease();
    try {
      return await runAttempt({
        task,
        instance,
        model: typeof model === "string" ? resolveModel(model) : model,
        world,
        chain: lease,
        modes,
        goldCache,
      });
    } finally {
      lease.release();
    }
  };
}
