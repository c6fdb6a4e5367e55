import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { InlineConfig, VitestPluginContext } from "vitest/node";
import { BaseError, UnknownModelError } from "../errors.ts";
import { checkRunModel } from "../models/checkRunModel.ts";
import type { InstanceOutcome } from "../results/outcome.ts";
import type { RunManifest } from "../results/types.ts";
import {
  DEFAULT_OPTIONS,
  optionsFromEnvironment,
  type RunOptions,
  UsageError,
  watchOutDir,
} from "../runOptions.ts";
import { installedAsDependency, PROJECT_ROOT, stateDir, taskIndex } from "../tasks/files.ts";
import type { ForkContext } from "../world/fork/boot.ts";
import { indexedSelection } from "./plan.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's options: provided by the CLI (`vitest.provide`), or by vitest.config.ts for plain Vitest. */
    questbench: RunOptions;
    /**
     * True when the questbench CLI runs the tests: its reporter marks an instance below the pass mark
     * ✗ and its exit code ignores scores, so such a test passes. Under plain Vitest (false) it fails.
     */
    questbenchCli: boolean;
    /** URLs of the Anvil instances the global setup booted for this run. */
    anvilUrls: string[];
    fork: ForkContext | null;
    /** results.json's manifest, built once by the global setup (the sandbox barriers in force included). */
    manifest: RunManifest;
  }
  interface TaskMeta {
    /** What became of the instance this benchmark test ran (the reporter's only input from the test). */
    questbench?: InstanceOutcome;
  }
}

/**
 * What the watcher of plain `npx vitest` ignores: the harness's own writes under `.questbench/` (the
 * gold modules it imports, results, caches), which would otherwise start another run after each run.
 */
export const WATCH_IGNORED = ["**/.questbench/**"];

/** The reporter of the benchmark (a module path, as Vitest loads reporters). */
export const QUESTBENCH_REPORTER = path.join(PROJECT_ROOT, "src/run/reporter.ts");

/**
 * Which projects of vitest.config.ts a Vitest command line runs: the benchmark unless `--project`
 * names only others; the unit suite only when `--project` names it (`npm test`). Plain `npx vitest`
 * in the repository is the benchmark, never the 10-minute unit suite as well.
 */
export function selectedProjects(argv: readonly string[]): {
  unit: boolean;
  tasks: boolean;
  mutants: boolean;
  benchmark: boolean;
} {
  const names: string[] = [];
  for (const [i, arg] of argv.entries()) {
    if (arg === "--") break;
    if (arg === "--project" && argv[i + 1] !== undefined) names.push(argv[i + 1]!);
    else if (arg.startsWith("--project=")) names.push(arg.slice("--project=".length));
  }
  if (names.length === 0) return { unit: false, tasks: false, mutants: false, benchmark: true };
  // Vitest's --project takes a name or a wildcard pattern (`--project "*"`).
  const literal = (part: string) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  const matches = (name: string) =>
    names.some((n) => new RegExp(`^${n.split("*").map(literal).join(".*")}$`).test(name));
  return {
    unit: matches("unit"),
    tasks: matches("tasks"),
    mutants: matches("mutants"),
    benchmark: matches("benchmark"),
  };
}

/**
 * The options of a plain Vitest run of the benchmark, checked as the CLI checks its own before
 * anything starts: the task selection and the model (its name, its key). `base` (the repository's
 * defaults, or a dependent project's `questbench({ … })` preset) under the `QUESTBENCH_*` variables,
 * Vitest's `--mode <model>` and the run flags after `--` (README "Plain Vitest and watch mode").
 * On bad input it prints `questbench: <reason>` and exits with the CLI's code (2 usage, 1 model):
 * inside Vitest's config loading a thrown error would print a stack, and a failing global setup
 * "No test files found" after it.
 */
export function plainVitestOptions(
  argv: string[],
  env: NodeJS.ProcessEnv,
  mode: string | undefined,
  base: RunOptions = DEFAULT_OPTIONS,
): RunOptions {
  try {
    const options = optionsFromEnvironment(argv, env, mode, base);
    indexedSelection(taskIndex(options.tasksDirs), options);
    for (const warning of checkRunModel(options, env)) console.warn(`questbench: warning: ${warning}`);
    return options;
  } catch (error) {
    const usage = error instanceof UsageError || error instanceof UnknownModelError;
    if (!usage && !(error instanceof BaseError)) throw error;
    console.error(`questbench: ${error.message}${usage ? ' (see README "Running")' : ""}`);
    process.exit(usage ? 2 : 1);
  }
}

/**
 * A Vite plugin that adds the benchmark's reporter (and `--junit`'s) to whatever reporters the
 * command line chose: Vitest replaces the config's `reporters` with `--reporter=…`, and results.json
 * and the score table must not depend on how the user likes to see the tests. In watch mode a run
 * without `--out` writes to {@link watchOutDir}, not to the folder of real runs.
 */
export function questbenchReporterPlugin(options: RunOptions) {
  return {
    name: "questbench:reporter",
    configureVitest({ vitest, project }: VitestPluginContext) {
      if (vitest.config.watch && options.out === undefined)
        project.provide("questbench", { ...options, out: watchOutDir(options) });
      const reporters = vitest.config.reporters;
      const has = (name: string) => reporters.some((r) => Array.isArray(r) && r[0] === name);
      if (!has(QUESTBENCH_REPORTER)) reporters.push([QUESTBENCH_REPORTER, {}]);
      if (options.junit && !has("junit")) reporters.push(["junit", { outputFile: options.junit }]);
    },
  };
}

/**
 * The Vitest settings of a benchmark run, shared by the CLI (src/runBenchmark.ts) and the
 * `benchmark` project of vitest.config.ts: one file, one dynamic test per instance, the Anvil
 * instances from the global setup, `--concurrency` tests in flight.
 */
export function benchmarkTestConfig(options: RunOptions) {
  return {
    include: ["tests/benchmark/benchmark.test.ts"],
    globalSetup: [path.join(PROJECT_ROOT, "tests/benchmark/globalSetup.ts")],
    maxConcurrency: options.concurrency,
    // No Vitest timeout on an instance: every wait inside one has its own limit (each model request
    // --request-timeout × retries, each execution the sandbox's, each receipt the chain's, the rounds
    // the composite budget), and a reasoning model through 8 composite rounds can take longer than any
    // fixed cap. A Vitest timeout would only drop an attempt that was still making progress.
    testTimeout: 0,
    hookTimeout: 120_000,
    // Transformed modules are cached on disk between runs (keyed by content): most of a one-task
    // run's fixed cost was Vite transforming the same ~100 files again (docs/PERFORMANCE.md "The author's loop").
    experimental: { fsModuleCache: true, fsModuleCachePath: moduleCachePath() },
    // viem and ethers are thousands of ES modules each: loading them natively cost every worker (so
    // every watch-mode re-run) ~250 ms; Vite's dependency optimizer bundles them once into a few files.
    deps: { optimizer: { ssr: { enabled: true, include: ["viem", "viem/accounts", "ethers"] } } },
  } satisfies InlineConfig;
}

/**
 * Vite's cache folder (Vitest's results cache, the optimized dependencies) for a run of the installed
 * package: under {@link stateDir}, not the package's own node_modules/.vite; undefined (Vite's
 * default) in a checkout.
 */
export const viteCacheDir = () => (installedAsDependency() ? path.join(stateDir(), "vite") : undefined);

/**
 * The folder of Vitest's on-disk module cache: one per installed dependency set. Vitest 4.1 clears its
 * cache folder when the lockfile changed, after it has already noted the folder as existing, and the
 * first run after every `npm install` then crashed writing into the removed folder (ENOENT on a
 * `.tmp-…` file). Keying the folder by the lockfile's hash means Vitest never finds a stale one to
 * clear; folders of earlier dependency sets are removed here.
 */
export function moduleCachePath(): string {
  const root = path.join(stateDir(), "vitest-cache");
  const lock = ["node_modules/.package-lock.json", "package-lock.json"]
    .map((f) => path.join(PROJECT_ROOT, f))
    .find((f) => existsSync(f));
  const key = lock ? createHash("sha1").update(readFileSync(lock)).digest("hex").slice(0, 16) : "no-lockfile";
  if (existsSync(root))
    for (const entry of readdirSync(root))
      if (entry !== key) rmSync(path.join(root, entry), { recursive: true, force: true });
  return path.join(root, key);
}
