import { appendFileSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestCase, TestModule, Vitest } from "vitest/node";
import { buildManifest } from "../src/reporting/manifest.ts";
import {
  renderSandboxWarning,
  renderShortfalls,
  renderSummary,
  summarize,
} from "../src/reporting/summary.ts";
import type { ForkRecord, InstanceResult, RunResults, SkippedInstance } from "../src/results/types.ts";
import { optionsFromEnvironment, type RunOptions } from "../src/runOptions.ts";
import { loadTasks } from "../src/tasks/load.ts";
import type { ForkContext } from "../src/world/fork/boot.ts";
import { loadWorld } from "../src/world/world.ts";

type NotStarted = NonNullable<RunResults["notStarted"]>[number];

declare module "vitest" {
  interface TaskMeta {
    /** The instance result a benchmark test hands to this reporter. */
    questbench?: InstanceResult;
    /** An instance the benchmark test did not start (`--budget`). */
    questbenchNotStarted?: NotStarted;
    /** Fork mode: an instance skipped because its pre-state could not be provisioned. */
    questbenchSkipped?: SkippedInstance;
  }
}

/**
 * The benchmark's Vitest reporter: a thin adapter. It collects each test's `meta().questbench`,
 * appends it to `instances.jsonl` as soon as it finishes (a crash keeps every finished result), and
 * at the end writes `results.json`, rewrites `instances.jsonl` to exactly the run's instances, and
 * prints the split totals (rendering lives in src/reporting). A run resumes (any model, unless
 * `--fresh`): it keeps the earlier lines of `instances.jsonl` (the benchmark test hands back the results it kept, marked
 * `resumed`, and those are not appended again).
 */
export default class QuestbenchReporter implements Reporter {
  private instances: InstanceResult[] = [];
  private notStarted: NotStarted[] = [];
  private skipped: SkippedInstance[] = [];
  private vitest: Vitest | undefined;
  private options: RunOptions = optionsFromEnvironment();
  private outDir = "";
  private resume = false;
  private opened = false;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
  }

  /** The fork the global setup provisioned (its `provide("fork")`), or null on the local world. */
  private fork(): ForkContext | null {
    const project = this.vitest?.projects.find((p) => p.name === "benchmark");
    return (project?.getProvidedContext() as { fork?: ForkContext | null } | undefined)?.fork ?? null;
  }

  onTestRunStart() {
    // Watch mode reruns: start every run from empty state.
    this.instances = [];
    this.notStarted = [];
    this.skipped = [];
    this.opened = false;
    this.options = optionsFromEnvironment();
    this.outDir = path.resolve(this.options.out);
    this.resume = !this.options.fresh;
  }

  onTestCaseResult(testCase: TestCase) {
    const meta = testCase.meta();
    if (meta.questbenchNotStarted) this.notStarted.push(meta.questbenchNotStarted);
    if (meta.questbenchSkipped) this.skipped.push(meta.questbenchSkipped);
    const result = meta.questbench;
    if (!result) return;
    const file = path.join(this.outDir, "instances.jsonl");
    if (!this.opened) {
      mkdirSync(this.outDir, { recursive: true });
      if (!this.resume) writeFileSync(file, "");
      this.opened = true;
    }
    this.instances.push(result);
    if (!result.resumed) appendFileSync(file, `${JSON.stringify(result)}\n`);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>) {
    if (this.instances.length === 0 && this.notStarted.length === 0 && this.skipped.length === 0) return;
    mkdirSync(this.outDir, { recursive: true });
    const order = (i: InstanceResult) => `${i.split === "atomic" ? 0 : 1}/${i.taskId}/${i.epoch}`;
    const instances = [...this.instances].sort((a, b) => order(a).localeCompare(order(b)));
    const fork = this.fork();
    const world = fork?.world ?? loadWorld();
    const forkRecord: ForkRecord | undefined = fork
      ? {
          ...fork.manifest,
          slots: fork.report.slots,
          unprovisioned: fork.report.requirements
            .filter((r) => !r.ok)
            .map((r) => ({ id: r.id, detail: r.detail })),
          timings: fork.report.timings,
        }
      : undefined;
    const taskFiles = Object.fromEntries(loadTasks().map((t) => [t.spec.file, t.spec.sha256]));
    const results: RunResults = {
      schemaVersion: 1,
      manifest: buildManifest(
        this.options,
        taskFiles,
        { worldId: world.worldId, chainId: world.chainId },
        forkRecord,
      ),
      summary: summarize(instances),
      instances,
      ...(this.notStarted.length > 0 ? { notStarted: this.notStarted } : {}),
      ...(this.skipped.length > 0 ? { skipped: this.skipped } : {}),
    };
    writeFileSync(path.join(this.outDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
    // One line per instance of this run (earlier lines of retried or stale instances dropped).
    const jsonl = path.join(this.outDir, "instances.jsonl");
    writeFileSync(`${jsonl}.tmp`, instances.map((i) => `${JSON.stringify(i)}\n`).join(""));
    renameSync(`${jsonl}.tmp`, jsonl);
    const shortfalls = renderShortfalls(instances);
    process.stdout.write(`\n${renderSummary(results.summary, this.options.model)}\n`);
    if (shortfalls.length > 0) process.stdout.write(`Instances below 100:\n${shortfalls.join("\n")}\n`);
    if (this.notStarted.length > 0)
      process.stdout.write(
        `Not started (--budget ${this.options.budget} USD): ${this.notStarted.map((n) => n.taskId).join(", ")}\n`,
      );
    if (this.skipped.length > 0)
      process.stdout.write(
        `Skipped on the fork (pre-state not provisioned; not a model failure): ${this.skipped.length} instance(s), left out of the scores and maxima above (${this.skipped.length * 100} points).\n${this.skipped.map((s) => `  ${s.taskId} (epoch ${s.epoch}): ${s.reason}`).join("\n")}\n`,
      );
    const resumed = instances.filter((i) => i.resumed).length;
    if (resumed > 0)
      process.stdout.write(
        `Resumed: ${resumed} instance(s) kept from an earlier run into this --out (--fresh runs them again).\n`,
      );
    const sandboxWarning = renderSandboxWarning(results.manifest.sandbox);
    if (sandboxWarning) process.stdout.write(`${sandboxWarning}\n`);
    const retries = instances.reduce((n, i) => n + (i.infraRetries ?? 0), 0);
    if (retries > 0)
      process.stdout.write(
        `Infrastructure retries: ${retries} attempt(s) run again after their Anvil instance failed (not scored).\n`,
      );
    process.stdout.write(
      `Results: ${path.relative(process.cwd(), path.join(this.outDir, "results.json"))}\n`,
    );
  }
}
