import { describe, inject, test } from "vitest";
import { TaskSpecError } from "../../src/errors.ts";
import { renderInfraRetry, renderInstanceAnnotation, renderRetry } from "../../src/reporting/progress.ts";
import { createRun } from "../../src/run/engine.ts";
import { belowPassMark } from "../../src/run/passMark.ts";
import { phase } from "../../src/run/phases.ts";
import { UsageError } from "../../src/runOptions.ts";
import type { Lease } from "../../src/world/pool.ts";

// The benchmark as Vitest tests: a thin shell over the run engine (src/run/engine.ts). Each planned
// instance (task × epoch) is one concurrent test; its outcome goes to the reporter in `meta`.
/** An instance left unscored or below the pass mark fails its test with one line, without stack frames. */
const failure = (message: string) => Object.assign(new Error(message), { stack: `Error: ${message}` });

phase("worker: process start", performance.timeOrigin);
phase("worker: test file imported");
const options = inject("questbench");
// A broken task spec or an impossible selection (--sample, --nl-level) is bad input: one line.
const run = (() => {
  try {
    return createRun(options, inject("fork"));
  } catch (error) {
    throw error instanceof TaskSpecError || error instanceof UsageError ? failure(error.message) : error;
  }
})();
// Under plain Vitest an instance below the pass mark fails its test (never a plain ✓); the CLI marks it
// ✗ in its own lines and keeps exit code 0 for any score (README "Exit codes").
const failBelowPassMark = !inject("questbenchCli");

const bench = test
  // One pool per worker over the Anvil instances the global setup booted (stopped with the worker).
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern.
  .extend("pool", { scope: "worker" }, async ({}, { onCleanup }) => {
    const pool = run.createPool(inject("anvilUrls"));
    onCleanup(() => run.closePool(pool));
    await pool.start();
    return pool;
  })
  // The chains one test leases (an infrastructure retry takes another); any still held is released
  // when the test ends, whatever it threw.
  .extend("chains", async ({ pool }, { onCleanup }) => {
    const held = new Set<Lease>();
    onCleanup(() => {
      for (const lease of held) lease.release();
    });
    return {
      lease: async () => {
        const lease = await pool.lease();
        held.add(lease);
        return lease;
      },
    };
  });

describe(`questbench · ${options.model} · seed ${options.seed}`, () => {
  const cases = run.planned.map((p) => [p.name, p] as const);
  bench.concurrent.for(cases)("%s", async ([, planned], { chains, task, skip, expect, annotate }) => {
    // A provider retry is an annotation as it happens: the reporter's progress line shows the wait.
    const onRetry = (notice: Parameters<typeof renderRetry>[1]) =>
      void annotate(renderRetry(planned.name, notice), "retry").catch(() => {});
    const onInfraRetry = (fault: string) =>
      void annotate(renderInfraRetry(planned.name, fault), "retry").catch(() => {});
    const outcome = await run.runInstance(planned, chains, { onRetry, onInfraRetry });
    task.meta.questbench = outcome;
    const note = renderInstanceAnnotation(outcome);
    if (note) await annotate(note, "score");
    switch (outcome.kind) {
      case "skipped":
        return skip(outcome.skipped.reason);
      case "not_started":
        return skip(outcome.message);
      case "provider_error":
        // A stopped run (the breaker tripped) reports once, in the CLI's last line, not per instance.
        if (outcome.result.failure?.code === "run_stopped") return skip(outcome.message);
        throw failure(outcome.message);
      case "infra_error":
        throw failure(outcome.message);
    }
    const below = belowPassMark(outcome);
    if (below && failBelowPassMark) throw failure(below);
    // The gold responses are the benchmark's proof that every task is solvable (README "Models").
    if (options.model === "reference") expect(outcome.result.score, outcome.result.failure?.reason).toBe(100);
  });
});
