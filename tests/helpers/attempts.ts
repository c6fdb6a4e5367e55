import { afterAll, beforeAll } from "vitest";
import { resolveModel } from "../../src/models/resolve.ts";
import { runAttempt } from "../../src/protocol/attempt.ts";
import type { InstanceResult } from "../../src/results/types.ts";
import { instantiate } from "../../src/tasks/instantiate.ts";
import { type LoadedTask, loadTasks } from "../../src/tasks/load.ts";
import { type AnvilPool, createAnvilPool } from "../../src/world/pool.ts";
import { loadWorld } from "../../src/world/world.ts";

export const world = loadWorld();
export const tasks: LoadedTask[] = loadTasks();
export const taskById = new Map(tasks.map((t) => [t.spec.id, t]));

/**
 * Boots a pool of world Anvils for the calling test file and returns `attempt(taskId, model, seed)`,
 * which runs one real atomic attempt (sandbox, guard, signing, checks) on a leased instance.
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
  return async function attempt(taskId: string, model: string, seed = 1, epoch = 0): Promise<InstanceResult> {
    const task = taskById.get(taskId);
    if (!task) throw new Error(`no task ${taskId}`);
    const instance = await instantiate(task.spec, { runSeed: seed, epoch, world });
    const lease = await pool.lease();
    try {
      return await runAttempt({ task, instance, model: resolveModel(model), world, chain: lease });
    } finally {
      lease.release();
    }
  };
}
