import { defineConfig } from "vitest/config";
import { optionsFromEnvironment } from "./src/runOptions.ts";

// Benchmark options reach the tests through `provide` (CLI → QUESTBENCH_OPTIONS, or
// `npx vitest --project benchmark -- --model=x`, or QUESTBENCH_MODEL).
const options = optionsFromEnvironment();

export default defineConfig({
  test: {
    // The suites mostly wait on child processes (sandboxed modules, Anvil): two workers even on 2 cores.
    maxWorkers: 2,
    reporters: [
      "default",
      "./reporters/questbench.ts",
      ...(options.junit
        ? [["junit", { outputFile: options.junit }] as ["junit", { outputFile: string }]]
        : []),
    ],
    // Task specs are read with fs, not imported: tell watch mode to rerun when one changes.
    forceRerunTriggers: ["**/tasks/**/*.{json,ts,md}", "**/fixtures/world/*.json"],
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
          include: ["tests/benchmark/benchmark.test.ts"],
          globalSetup: ["tests/benchmark/globalSetup.ts"],
          provide: { questbench: options },
          maxConcurrency: options.concurrency,
          // A real model may think for minutes; the sandbox and the chain have their own limits.
          testTimeout: 15 * 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
