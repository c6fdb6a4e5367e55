import { defineConfig } from "vitest/config";
import { benchmarkTestConfig, moduleCachePath, QUESTBENCH_REPORTER } from "./src/run/vitest.ts";
import { optionsFromEnvironment } from "./src/runOptions.ts";

// Plain Vitest runs of the benchmark take their options from the QUESTBENCH_* variables, Vitest's
// `--mode <model>` and flags after `--` (README "Running"). The CLI does not read this file.
export default defineConfig(({ mode }) => {
  const options = optionsFromEnvironment(process.argv, process.env, mode);
  return {
    test: {
      // The suites mostly wait on child processes (sandboxed modules, Anvil): two workers even on 2 cores.
      maxWorkers: 2,
      // Vitest keeps the module cache's lockfile stamp in the root config's cache folder and, when the
      // stamp is stale, deletes every project's cache folder without renewing it. Without this line the
      // root's folder was node_modules/.experimental-vitest-cache, whose stamp went stale at the first
      // `npm install`: every plain Vitest start then deleted the benchmark's cache, and a questbench run
      // reading it at that moment failed with ENOENT. One folder, keyed by the lockfile, for both.
      experimental: { fsModuleCachePath: moduleCachePath() },
      // Task specs and the world are read with fs, not imported: rerun when one changes.
      forceRerunTriggers: ["**/tasks/**/*.{json,ts,md}", "**/fixtures/world/*.json"],
      reporters: [
        "default",
        QUESTBENCH_REPORTER,
        ...(options.junit
          ? [["junit", { outputFile: options.junit }] as ["junit", { outputFile: string }]]
          : []),
      ],
      projects: [
        {
          test: {
            name: "unit",
            include: ["tests/**/*.test.ts"],
            exclude: ["tests/benchmark/**", "tests/mutants/**", "**/node_modules/**"],
            testTimeout: 120_000,
            hookTimeout: 120_000,
          },
        },
        {
          // Generic wrong answers from every gold answer (docs/SCORING.md "Effect ledger"): ~4,000
          // attempts, a CI step of its own (`npm run mutants`) beside the unit suite.
          test: {
            name: "mutants",
            include: ["tests/mutants/**/*.test.ts"],
            testTimeout: 900_000,
            hookTimeout: 120_000,
          },
        },
        {
          test: {
            name: "benchmark",
            ...benchmarkTestConfig(options),
            provide: { questbench: options, questbenchCli: false },
          },
        },
      ],
    },
  };
});
