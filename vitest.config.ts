import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import {
  benchmarkTestConfig,
  moduleCachePath,
  plainVitestOptions,
  questbenchReporterPlugin,
  selectedProjects,
  WATCH_IGNORED,
} from "./src/run/vitest.ts";

// The unit suite's slowest files, slowest first (seconds each in a clean-clone `.ci/run` on 2 cores:
// models.run 118, run 84, package 55, faults 31, cli 30, attacks 30, resume 29, world 22, fork 21,
// report 18, sandbox 14, taskPack 12, lockdown 12, vitest.plain 11). A fresh clone has no Vitest
// duration cache, so Vitest orders files by size and a 118-second file could start last while the
// other worker idles. A stale list costs wall time only, never a result.
const SLOW_UNIT_FILES = [
  "models.run",
  "run",
  "package",
  "faults",
  "cli",
  "attacks",
  "resume",
  "world",
  "fork",
  "report",
  "sandbox",
  "taskPack",
  "lockdown",
  "vitest.plain",
].map((name) => `/tests/${name}.test.ts`);

/** Vitest's order (cached durations, else size) with the slow unit files moved first; stable otherwise. */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_UNIT_FILES.findIndex((suffix) => f.moduleId.endsWith(suffix));
      return i === -1 ? SLOW_UNIT_FILES.length : i;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

// `npx vitest` in the repository is the benchmark: its options come from the QUESTBENCH_* variables,
// Vitest's `--mode <model>` and flags after `--` (README "Plain Vitest and watch mode"). The unit
// suite is a project of its own that runs only when named (`npm test` = `vitest run --project unit`).
// The CLI does not read this file.
export default defineConfig(({ mode }) => {
  const projects = selectedProjects(process.argv);
  // A bad flag, an unknown model or a missing key: one line and the CLI's exit code, before Vitest
  // starts anything (it would otherwise print a stack or "No test files found").
  const options = projects.benchmark ? plainVitestOptions(process.argv, process.env, mode) : undefined;
  return {
    // The harness writes under .questbench/ during a run (gold modules it imports, results): in watch
    // mode each write would start another run. Vitest 4 has no watchExclude; Vite's watcher option is it.
    server: {
      watch: { ignored: [...WATCH_IGNORED, ...(options?.out ? [`${path.resolve(options.out)}/**`] : [])] },
    },
    test: {
      // The suites mostly wait on child processes (sandboxed modules, Anvil): two workers even on 2 cores.
      maxWorkers: 2,
      // The unit suite's slowest files first, so neither worker idles at the end.
      sequence: { sequencer: SlowFirstSequencer },
      // Vitest keeps the module cache's lockfile stamp in the root config's cache folder and, when the
      // stamp is stale, deletes every project's cache folder without renewing it. Without this line the
      // root's folder was node_modules/.experimental-vitest-cache, whose stamp went stale at the first
      // `npm install`: every plain Vitest start then deleted the benchmark's cache, and a questbench run
      // reading it at that moment failed with ENOENT. One folder, keyed by the lockfile, for both.
      experimental: { fsModuleCachePath: moduleCachePath() },
      // Task specs and the world are read with fs, not imported: rerun when one changes.
      forceRerunTriggers: ["**/tasks/**/*.{json,ts,md}", "**/fixtures/world/*.json"],
      projects: [
        ...(projects.unit
          ? [
              {
                test: {
                  name: "unit",
                  include: ["tests/**/*.test.ts"],
                  exclude: ["tests/benchmark/**", "tests/tasks/**", "**/node_modules/**"],
                  // The caller's QUESTBENCH_* variables are a benchmark run's options, not the suite's.
                  setupFiles: ["tests/helpers/unitEnvironment.ts"],
                  // Bounds on hangs, not on speed: at load average 12–20 the suite ran 3× slower
                  // than quiet. Speed is measured by `npm run bench`.
                  testTimeout: 600_000,
                  hookTimeout: 600_000,
                },
              },
            ]
          : []),
        ...(projects.tasks
          ? [
              {
                // The per-task sweeps, thousands of attempts (README "Development"): every task's
                // gold answer, its cases and the whole benchmark on a fork. A CI step of its own
                // (`npm run test:tasks`) after `npm test`.
                test: {
                  name: "tasks",
                  include: ["tests/tasks/**/*.test.ts"],
                  exclude: ["tests/tasks/mutants.*.test.ts", "**/node_modules/**"],
                  setupFiles: ["tests/helpers/unitEnvironment.ts"],
                  testTimeout: 900_000,
                  hookTimeout: 120_000,
                },
              },
            ]
          : []),
        ...(projects.mutants
          ? [
              {
                // Generic wrong answers from every gold answer (docs/SCORING.md "Proof"): about 4,000
                // attempts (`npm run mutants`), a CI step of its own after the tasks tier; two files
                // (two halves of the task bank) so both cores run one.
                test: {
                  name: "mutants",
                  include: ["tests/tasks/mutants.*.test.ts"],
                  setupFiles: ["tests/helpers/unitEnvironment.ts"],
                  testTimeout: 900_000,
                  hookTimeout: 120_000,
                },
              },
            ]
          : []),
        ...(options
          ? [
              {
                // results.json and the score table whatever `--reporter` the command line names.
                plugins: [questbenchReporterPlugin(options)],
                test: {
                  name: "benchmark",
                  ...benchmarkTestConfig(options),
                  provide: { questbench: options, questbenchCli: false },
                },
              },
            ]
          : []),
      ],
    },
  };
});
