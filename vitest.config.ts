import { defineConfig } from "vitest/config";
import { benchmarkTestConfig, QUESTBENCH_REPORTER } from "./src/run/vitest.ts";
import { optionsFromEnvironment } from "./src/runOptions.ts";

// Plain Vitest runs of the benchmark take their options from the QUESTBENCH_* variables, Vitest's
// `--mode <model>` and flags after `--` (README "Running"). The CLI does not read this file.
export default defineConfig(({ mode }) => {
  const options = optionsFromEnvironment(process.argv, process.env, mode);
  return {
    test: {
      // The suites mostly wait on child processes (sandboxed modules, Anvil): two workers even on 2 cores.
      maxWorkers: 2,
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
            exclude: ["tests/benchmark/**", "**/node_modules/**"],
            testTimeout: 120_000,
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
