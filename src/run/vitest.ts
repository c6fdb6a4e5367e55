import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { InlineConfig } from "vitest/node";
import type { InstanceOutcome } from "../results/outcome.ts";
import type { RunManifest } from "../results/types.ts";
import type { RunOptions } from "../runOptions.ts";
import { PROJECT_ROOT } from "../tasks/files.ts";
import type { ForkContext } from "../world/fork/boot.ts";

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

/** The reporter of the benchmark (a module path, as Vitest loads reporters). */
export const QUESTBENCH_REPORTER = path.join(PROJECT_ROOT, "reporters/questbench.ts");

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
    // run's fixed cost was Vite transforming the same ~100 files again (README "Performance").
    experimental: { fsModuleCache: true, fsModuleCachePath: moduleCachePath() },
    // viem and ethers are thousands of ES modules each: loading them natively cost every worker (so
    // every watch-mode re-run) ~250 ms; Vite's dependency optimizer bundles them once into a few files.
    deps: { optimizer: { ssr: { enabled: true, include: ["viem", "viem/accounts", "ethers"] } } },
  } satisfies InlineConfig;
}

/**
 * The folder of Vitest's on-disk module cache: one per installed dependency set. Vitest 4.1 clears its
 * cache folder when the lockfile changed, after it has already noted the folder as existing, and the
 * first run after every `npm install` then crashed writing into the removed folder (ENOENT on a
 * `.tmp-…` file). Keying the folder by the lockfile's hash means Vitest never finds a stale one to
 * clear; folders of earlier dependency sets are removed here.
 */
export function moduleCachePath(): string {
  const root = path.join(PROJECT_ROOT, ".questbench", "vitest-cache");
  const lock = ["node_modules/.package-lock.json", "package-lock.json"]
    .map((f) => path.join(PROJECT_ROOT, f))
    .find((f) => existsSync(f));
  const key = lock ? createHash("sha1").update(readFileSync(lock)).digest("hex").slice(0, 16) : "no-lockfile";
  if (existsSync(root))
    for (const entry of readdirSync(root))
      if (entry !== key) rmSync(path.join(root, entry), { recursive: true, force: true });
  return path.join(root, key);
}
