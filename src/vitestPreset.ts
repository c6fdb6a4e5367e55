/**
 * The Vitest entry for a project that depends on the package (`evm-questbench/vitest`; README "Vitest
 * in your project"): its own vitest.config.ts runs the benchmark, on the built-in tasks or its own
 * packs, as the repository's `npx vitest` does.
 */
import path from "node:path";
import type { ViteUserConfig } from "vitest/config";
import {
  benchmarkTestConfig,
  moduleCachePath,
  plainVitestOptions,
  questbenchReporterPlugin,
  WATCH_IGNORED,
} from "./run/vitest.ts";
import { DEFAULT_OPTIONS, type RunOptions } from "./runOptions.ts";
import { PROJECT_ROOT } from "./tasks/files.ts";

/** {@link questbench}'s options: any run option (the CLI's flags, README "Running"); the rest default. */
export type QuestbenchPresetParameters = Partial<RunOptions> & {
  /** `--tasks-dir`: task packs (README "Write your own task"), relative to the working directory or absolute. */
  tasksDirs?: string[] | undefined;
  /** The Vitest project's name (`npx vitest --project <name>`); default `questbench`. */
  name?: string | undefined;
};

/**
 * A Vitest configuration whose one project is the benchmark: one test per instance (a score below
 * the pass mark, 60, fails its test), the Anvil instances from the package's global setup,
 * results.json and the score table from the package's reporter beside whatever `--reporter` the
 * command line names (docs/RUNNING.md "Plain Vitest and watch mode").
 *
 * The parameters are the run's defaults: `QUESTBENCH_*` variables, `--mode <model>` and run flags
 * after `--` (`npx vitest run -- --split=atomic`) override them. Results go to `out`, else
 * `.questbench/results/<model>/` of the working directory (`.questbench/watch/<model>/` in watch mode).
 * Combine it with a project's own settings through Vitest's `mergeConfig`.
 *
 * On a bad option, an unknown task or model, or a missing provider key, prints `questbench: <reason>`
 * and exits (2 for usage, 1 otherwise) before Vitest starts, as the CLI does.
 * @example
 * // vitest.config.ts
 * import { defineConfig } from "vitest/config";
 * import { questbench } from "evm-questbench/vitest";
 * export default defineConfig(questbench({ tasksDirs: ["my-pack"], model: "reference" }));
 */
export function questbench(parameters: QuestbenchPresetParameters = {}): ViteUserConfig {
  const { name = "questbench", ...runParameters } = parameters;
  const base: RunOptions = {
    ...DEFAULT_OPTIONS,
    ...runParameters,
    ...(runParameters.tasksDirs ? { tasksDirs: runParameters.tasksDirs.map((d) => path.resolve(d)) } : {}),
  };
  const mode = modeFlag(process.argv);
  const options = plainVitestOptions(process.argv, process.env, mode, base);
  return {
    // The harness writes under .questbench/ during a run: in watch mode each write would start another run.
    server: {
      watch: { ignored: [...WATCH_IGNORED, ...(options.out ? [`${path.resolve(options.out)}/**`] : [])] },
    },
    test: {
      // The root's and the project's module cache in one folder (src/run/vitest.ts, moduleCachePath).
      experimental: { fsModuleCachePath: moduleCachePath() },
      forceRerunTriggers: [
        "**/tasks/**/*.{json,ts,md}",
        ...(options.tasksDirs ?? []).map((d) => `${d}/**/*.{json,ts,md}`),
      ],
      projects: [
        {
          plugins: [questbenchReporterPlugin(options)],
          test: {
            name,
            // The benchmark's test file and global setup are the package's own (tests/benchmark/).
            root: PROJECT_ROOT,
            ...benchmarkTestConfig(options),
            provide: { questbench: options, questbenchCli: false },
          },
        },
      ],
    },
  };
}

/** Vitest's `--mode <value>` or `--mode=<value>` before `--`: a config object, unlike a config function, is not given it. */
function modeFlag(argv: readonly string[]): string | undefined {
  for (const [i, arg] of argv.entries()) {
    if (arg === "--") break;
    if (arg === "--mode") return argv[i + 1];
    if (arg.startsWith("--mode=")) return arg.slice("--mode=".length);
  }
  return undefined;
}
