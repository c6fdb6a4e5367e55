import { describe, expect, inject, test } from "vitest";
import { resolveModel } from "../../src/models/resolve.ts";
import { runAttempt } from "../../src/protocol/attempt.ts";
import { instantiate } from "../../src/tasks/instantiate.ts";
import { loadTasks } from "../../src/tasks/load.ts";
import { selectTasks } from "../../src/tasks/select.ts";
import { createAnvilPool } from "../../src/world/pool.ts";
import { loadWorld } from "../../src/world/world.ts";

// The benchmark as Vitest tests: each selected task spec × epoch is one dynamic test that leases
// an Anvil, runs one attempt and hands its result to the reporter through `meta`.
const options = inject("questbench");
const world = loadWorld();
const model = resolveModel(options.model);
const tasks = selectTasks(loadTasks(), options);
const pool = createAnvilPool({ size: options.concurrency, world, attach: inject("anvilUrls") });
const started = pool.start();

describe.concurrent(`questbench · ${options.model} · seed ${options.seed}`, () => {
  for (const task of tasks) {
    for (let epoch = 0; epoch < options.epochs; epoch++) {
      const name = options.epochs > 1 ? `${task.spec.id} #${epoch}` : task.spec.id;
      test(name, async ({ task: testCase }) => {
        await started;
        const instance = await instantiate(task.spec, { runSeed: options.seed, epoch, world });
        const lease = await pool.lease();
        try {
          const result = await runAttempt({ task, instance, model, world, chain: lease });
          testCase.meta.questbench = result;
          // The gold responses are the benchmark's proof that every task is solvable (SPEC.md §7).
          if (options.model === "reference") expect(result.score, result.failure?.reason).toBe(100);
        } finally {
          lease.release();
        }
      });
    }
  }
});
