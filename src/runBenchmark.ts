import { readFileSync } from "node:fs";
import path from "node:path";
import type { RunResults } from "./results/types.ts";
import type { RunOptions } from "./runOptions.ts";
import { PROJECT_ROOT } from "./tasks/load.ts";

export type RunBenchmarkReturnType = {
  /** The run's results.json, or undefined when no instance finished (e.g. a setup failure). */
  results: RunResults | undefined;
  /** Vitest's exit code: 0 when every test passed (for `reference`: every instance scored 100). */
  exitCode: number;
  resultsPath: string;
};

/**
 * Runs the benchmark through Vitest's Node API (the `benchmark` project of vitest.config.ts):
 * one dynamic test per selected instance, Anvil pool from the global setup, results.json from the
 * QuestBench reporter in `options.out`.
 * @example
 * const { results } = await runBenchmark({ ...DEFAULT_OPTIONS, model: "reference", split: "atomic" });
 * console.log(results?.summary.atomic.score);
 */
export async function runBenchmark(options: RunOptions): Promise<RunBenchmarkReturnType> {
  process.env.QUESTBENCH_OPTIONS = JSON.stringify(options);
  const { startVitest } = await import("vitest/node");
  const before = process.exitCode;
  const vitest = await startVitest("test", [], {
    root: PROJECT_ROOT,
    config: path.join(PROJECT_ROOT, "vitest.config.ts"),
    project: ["benchmark"],
    watch: false,
    run: true,
  });
  await vitest.close();
  const exitCode = typeof process.exitCode === "number" && process.exitCode !== before ? process.exitCode : 0;
  const resultsPath = path.resolve(options.out, "results.json");
  let results: RunResults | undefined;
  try {
    results = JSON.parse(readFileSync(resultsPath, "utf8")) as RunResults;
  } catch {
    results = undefined;
  }
  return { results, exitCode, resultsPath };
}
