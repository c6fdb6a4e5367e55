import path from "node:path";
import type { RunResults } from "./results/types.ts";
import { phase } from "./run/phases.ts";
import { preflight } from "./run/preflight.ts";
import QuestbenchReporter from "./run/reporter.ts";
import { benchmarkTestConfig, viteCacheDir } from "./run/vitest.ts";
import { outDir, type RunOptions } from "./runOptions.ts";
import { requireSandboxBarriers } from "./sandbox/requireBarriers.ts";
import { PROJECT_ROOT } from "./tasks/files.ts";

export type RunBenchmarkReturnType = {
  /**
   * The run's results.json as the reporter's recorder wrote it (kept in memory, not read back), or
   * undefined when no instance finished (e.g. a setup failure).
   */
  results: RunResults | undefined;
  /** Vitest's exit code: 0 when every test passed (for `reference`: every instance scored 100). */
  exitCode: number;
  resultsPath: string;
};

/**
 * Runs the benchmark through Vitest's Node API: one dynamic test per selected instance
 * (tests/benchmark/benchmark.test.ts), Anvil instances from its global setup, results.json written
 * in `outDir(options)` by the QuestBench reporter (an instance made here, whose results this returns). The options reach the tests and the reporter through
 * `vitest.provide`; vitest.config.ts is not read (its `benchmark` project is the same settings, for
 * plain `npx vitest`).
 * @param hooks.warn receives the one-line warnings of the checks before the run (default console.warn).
 * @throws {UsageError} or {ModelProviderError} from those checks (src/run/preflight.ts), before anything runs.
 * @example
 * const { results } = await runBenchmark({ ...DEFAULT_OPTIONS, model: "reference", split: "atomic" });
 * console.log(results?.summary.atomic.score);
 */
export async function runBenchmark(
  options: RunOptions,
  hooks: { warn?: (warning: string) => void } = {},
): Promise<RunBenchmarkReturnType> {
  // Before Vitest and Anvil start: a bad --out, a model that cannot be called, a folder of another
  // run, unknown tasks, and an untrusted model on a set-up without a barrier stop here.
  // A task pack's gold answers are not the project's own: `reference` over a pack is untrusted code.
  // Checked last, before the output folder is created: a refused run leaves nothing behind.
  const packGold = options.model === "reference" && Boolean(options.tasksDirs?.length);
  const barriers = () =>
    void requireSandboxBarriers(
      packGold ? "reference (with --tasks-dir)" : options.model,
      options.unsafeSandbox,
    );
  for (const warning of preflight(options, barriers)) (hooks.warn ?? console.warn)(warning);
  phase("cli: preflight checked");
  const { createVitest } = await import("vitest/node");
  phase("vitest/node imported");
  const before = process.exitCode;
  const reporter = new QuestbenchReporter({ standalone: true });
  const vitest = await createVitest(
    "test",
    {
      root: PROJECT_ROOT,
      config: false,
      watch: false,
      ...benchmarkTestConfig(options),
      reporters: [
        reporter,
        ...(options.junit
          ? [["junit", { outputFile: options.junit }] as ["junit", { outputFile: string }]]
          : []),
      ],
    },
    { cacheDir: viteCacheDir() },
  );
  vitest.provide("questbench", options);
  vitest.provide("questbenchCli", true);
  try {
    await vitest.start();
  } finally {
    await vitest.close();
  }
  phase("vitest run finished");
  const exitCode = typeof process.exitCode === "number" && process.exitCode !== before ? process.exitCode : 0;
  return { results: reporter.results, exitCode, resultsPath: path.resolve(outDir(options), "results.json") };
}
