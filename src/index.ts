/**
 * The programmatic API (package `exports` "."; README "Programmatic use"): the functions the CLI
 * itself calls, for a script or a tool that builds on the benchmark. Plain Node reaches it through
 * index.mjs: the compiled dist/index.js in the installed package (`npm run build`), these TypeScript
 * modules through Vite's module runner in a checkout that was not built (src/moduleRunner.mjs).
 */
import path from "node:path";
import { loadRuns } from "./results/load.ts";
import type { RunResults } from "./results/types.ts";
import { type RunBenchmarkReturnType, runBenchmark as runWithOptions } from "./runBenchmark.ts";
import { DEFAULT_OPTIONS, type RunOptions } from "./runOptions.ts";

export type { WriteReportParameters } from "./reporting/report.ts";
export { writeReport } from "./reporting/report.ts";
export type { InstanceResult, RunResults } from "./results/types.ts";
export type { TaskListing } from "./run/listTasks.ts";
export { listTasks } from "./run/listTasks.ts";
export type { ValidatePackParameters, ValidatePackReturnType } from "./run/validatePack.ts";
export { validatePack } from "./run/validatePack.ts";
export type { RunBenchmarkReturnType } from "./runBenchmark.ts";
export type { RunModes, RunOptions } from "./runOptions.ts";
export { DEFAULT_OPTIONS } from "./runOptions.ts";

/** {@link runBenchmark}'s options: any run option (the CLI's flags, README "Running"); the rest default. */
export type RunBenchmarkParameters = Partial<RunOptions> & {
  /** `--tasks-dir`: task packs (README "Write your own task"), relative to the working directory or absolute. */
  tasksDirs?: string[] | undefined;
};

/**
 * Runs the benchmark as `npx questbench` does (Vitest's Node API, Anvil, the sandbox), with the
 * CLI's defaults for every option not given (`--model reference --split paper --seed 1 --epochs 1
 * --concurrency 2`, results in `.questbench/results/<model>/`), and returns the run's results.json.
 * @returns `results` (undefined when no instance finished), Vitest's `exitCode`, `resultsPath`.
 * @throws {UsageError} for an option the CLI would refuse (an unknown task, an `--out` of another run).
 * @throws {ModelProviderError} for a model that cannot be called (unknown, retired, no key).
 * @example
 * import { runBenchmark } from "evm-questbench";
 * const { results } = await runBenchmark({ model: "reference", tasks: ["erc20_approve"], out: "out" });
 * console.log(results?.instances[0]?.score); // 100
 */
export function runBenchmark(
  parameters: RunBenchmarkParameters = {},
  hooks: { warn?: (warning: string) => void } = {},
): Promise<RunBenchmarkReturnType> {
  const options: RunOptions = {
    ...DEFAULT_OPTIONS,
    ...parameters,
    ...(parameters.tasksDirs ? { tasksDirs: parameters.tasksDirs.map((d) => path.resolve(d)) } : {}),
  };
  return runWithOptions(options, hooks);
}

/**
 * Reads results.json files: the paths named, or every results.json below the folders named (in
 * name order), each checked to be a QuestBench results.json (schemaVersion 1; docs/RUNNING.md
 * "Reports").
 * @returns each file's path and its results.
 * @throws {MergeError} naming the path: missing, none found, not JSON, or not a results.json.
 */
export function loadResults(paths: string | readonly string[]): { source: string; results: RunResults }[] {
  return loadRuns(typeof paths === "string" ? [paths] : paths);
}
