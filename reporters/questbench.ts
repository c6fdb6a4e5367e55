import { appendFileSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TestAnnotation } from "vitest";
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, Vitest } from "vitest/node";
import { folderManifest, taskFileHashes } from "../src/reporting/manifest.ts";
import { byInstanceOrder } from "../src/reporting/merge.ts";
import {
  feed,
  type Progress,
  renderFinishedLine,
  renderTotals,
  startProgress,
} from "../src/reporting/progress.ts";
import { renderRunEnd, summarize } from "../src/reporting/summary.ts";
import type { InstanceOutcome, NotStarted } from "../src/results/outcome.ts";
import type { InstanceResult, RunResults, SkippedInstance } from "../src/results/types.ts";
import { phase } from "../src/run/phases.ts";
import { instanceKey, readFolder } from "../src/run/resume.ts";
import { taskIndex } from "../src/tasks/files.ts";
import "../src/run/vitest.ts";
import { outDir, type RunOptions } from "../src/runOptions.ts";

const BENCHMARK_FILE = path.join("tests", "benchmark", "benchmark.test.ts");
const isBenchmark = (moduleId: string) => moduleId.endsWith(BENCHMARK_FILE);

/**
 * The benchmark's Vitest reporter, an adapter: it reads each benchmark test's outcome (`meta().questbench`),
 * appends its result to `instances.jsonl` as it finishes (a crash keeps every finished result),
 * prints progress, and at the end writes `results.json` and rewrites `instances.jsonl`, both over
 * every instance of the output folder: the ones this run finished or resumed, and those earlier runs
 * left that this one did not select (docs/RUNNING.md "The output folder": a run adds to its folder). After Ctrl-C or a
 * SIGTERM it writes results.json marked `interrupted` and says so in one line. All text comes from
 * the pure renderers of src/reporting; output goes through Vitest's logger.
 *
 * `standalone` (the CLI): no other reporter runs, so this one shows each finished instance with its
 * score, a live line in a terminal, and the errors. Beside Vitest's default reporter (plain
 * `npx vitest`) it prints only the plain per-instance lines, and only without a terminal.
 */
export default class QuestbenchReporter implements Reporter {
  private vitest!: Vitest;
  /** Undefined when the session runs no benchmark (e.g. `vitest --project unit`): the reporter stays idle. */
  private options: RunOptions | undefined;
  private outDir = "";
  /** The folder's results before this run (instances.jsonl), unless `--fresh`. */
  private prior: InstanceResult[] = [];
  private instances: InstanceResult[] = [];
  private notStarted: NotStarted[] = [];
  private skipped: SkippedInstance[] = [];
  /** Of this run's instances: attempted now, and USD paid for them (null once a call had no price). */
  private ran = 0;
  private paidUsd: number | null = 0;
  private opened = false;
  private progress: Progress = startProgress(0, Date.now());
  private live = false;
  private written = false;

  constructor(private readonly settings: { standalone?: boolean } = {}) {}

  onInit(vitest: Vitest) {
    this.vitest = vitest;
    // Vitest's own handler exits the process 1 ms after Ctrl-C or SIGTERM, before any run-end hook:
    // write what finished now, marked interrupted (synchronously, so it lands before that exit).
    const interrupted = (signal: NodeJS.Signals) => this.interrupted(signal);
    process.once("SIGINT", interrupted);
    process.once("SIGTERM", interrupted);
    vitest.onClose(() => {
      process.off("SIGINT", interrupted);
      process.off("SIGTERM", interrupted);
    });
  }

  private provided() {
    const project = this.vitest.projects.find((p) => p.name === "benchmark") ?? this.vitest.getRootProject();
    return project.getProvidedContext() as Partial<ReturnType<typeof project.getProvidedContext>>;
  }

  private get tty() {
    return Boolean((this.vitest.logger.outputStream as NodeJS.WriteStream).isTTY);
  }

  onTestRunStart() {
    // Watch mode reruns: start every run from empty state.
    this.options = this.provided().questbench;
    if (!this.options) return;
    this.outDir = path.resolve(outDir(this.options));
    this.prior = this.options.fresh ? [] : readFolder(this.outDir);
    this.instances = [];
    this.notStarted = [];
    this.skipped = [];
    this.ran = 0;
    this.paidUsd = 0;
    this.opened = false;
    this.written = false;
    this.progress = startProgress(0, Date.now());
  }

  onTestModuleCollected(module: TestModule) {
    if (!isBenchmark(module.moduleId)) return;
    const tests = [...module.children.allTests()];
    this.progress = { ...this.progress, total: this.progress.total + tests.length };
    // Fork mode: the selected tasks whose world cannot be provisioned on this fork, named before any runs.
    const skipped = this.provided().fork?.skipped ?? {};
    const refused = [...new Set(tests.map((t) => t.name.split(" #")[0]!))].filter((id) => skipped[id]);
    if (refused.length > 0)
      this.vitest.logger.log(
        [
          `Skipped on this fork, before the run (their world cannot be provisioned here; not scored): ${refused.length} task(s)`,
          ...refused.map((id) => `  ${id}: ${skipped[id]}`),
        ].join("\n"),
      );
    if (this.tty && this.settings.standalone) {
      this.vitest.logger.outputStream.write(`\r\x1b[2K${renderTotals(this.progress, Date.now())}`);
      this.live = true;
    }
  }

  /** A provider retry while an instance runs (tests/benchmark: an annotation of type `retry`). */
  onTestCaseAnnotate(testCase: TestCase, annotation: TestAnnotation) {
    if (!this.options || !isBenchmark(testCase.module.moduleId) || annotation.type !== "retry") return;
    this.printLine(annotation.message, true);
  }

  onTestCaseResult(testCase: TestCase) {
    if (!this.options || !isBenchmark(testCase.module.moduleId)) return;
    const outcome = testCase.meta().questbench;
    if (this.settings.standalone)
      for (const error of testCase.result().errors ?? []) this.printError(testCase.fullName, error);
    if (!outcome) return;
    this.progress = feed(this.progress, outcome);
    this.printLine(renderFinishedLine(testCase.name, outcome, this.progress, Date.now()), false);
    if (outcome.kind === "not_started") this.notStarted.push(outcome.notStarted);
    if (outcome.kind === "skipped") this.skipped.push(outcome.skipped);
    if (outcome.kind === "not_started" || outcome.kind === "skipped") return;
    const result = outcome.result;
    this.instances.push(result);
    if (outcome.kind === "resumed") return;
    this.count(outcome);
    const file = path.join(this.outDir, "instances.jsonl");
    if (!this.opened) {
      mkdirSync(this.outDir, { recursive: true });
      if (this.options.fresh) writeFileSync(file, "");
      this.opened = true;
    }
    appendFileSync(file, `${JSON.stringify(result)}\n`);
  }

  /** An instance this run attempted: what it paid (cache hits cost nothing; a model without a price has no figure). */
  private count(outcome: Exclude<InstanceOutcome, { kind: "resumed" | "not_started" | "skipped" }>) {
    this.ran++;
    const usage = outcome.result.usage;
    if (!usage) return;
    this.paidUsd = this.paidUsd === null || usage.spentUsd === null ? null : this.paidUsd + usage.spentUsd;
  }

  /**
   * One progress line. Without a terminal: printed with the totals. In a terminal (the CLI only): the
   * line scrolls up and the live totals stay last; a finished instance's line drops its totals.
   */
  private printLine(line: string, withTotals: boolean) {
    const now = Date.now();
    if (!this.tty) {
      this.vitest.logger.log(withTotals ? `${line}  [${renderTotals(this.progress, now)}]` : line);
      return;
    }
    if (!this.settings.standalone) return;
    const out = this.vitest.logger.outputStream;
    out.write(`\r\x1b[2K${line.replace(/ {2}\[.*\]$/, "")}\n${renderTotals(this.progress, now)}`);
    this.live = true;
  }

  private clearLive() {
    if (!this.live) return;
    this.vitest.logger.outputStream.write("\r\x1b[2K");
    this.live = false;
  }

  private printError(where: string, error: SerializedError) {
    this.clearLive();
    this.vitest.logger.error(`✗ ${where}: ${error.stack ?? error.message}`);
  }

  /** Ctrl-C or SIGTERM: results.json now (marked interrupted), and one line saying what was kept. */
  private interrupted(signal: NodeJS.Signals) {
    if (!this.options || this.written) return;
    this.clearLive();
    const results = this.writeResults(true);
    const where = path.relative(process.cwd(), path.join(this.outDir, "results.json")) || "results.json";
    const finished = this.instances.length;
    process.stderr.write(
      `questbench: interrupted (${signal}): ${
        results
          ? `${finished} instance(s) of this run finished, kept with the folder's others in ${where}`
          : "no instance finished"
      }; the same command again runs the rest\n`,
    );
  }

  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ) {
    if (!this.options) return;
    phase("reporter: run end");
    this.clearLive();
    if (this.settings.standalone) {
      for (const m of modules) for (const e of m.errors()) this.printError(m.moduleId, e);
      for (const e of unhandledErrors) this.printError("unhandled error", e);
    }
    const results = this.writeResults(reason === "interrupted");
    phase("reporter: results.json written");
    if (!results) return;
    this.vitest.logger.log(
      `\n${renderRunEnd(results, this.options)}\nResults: ${path.relative(process.cwd(), path.join(this.outDir, "results.json"))}`,
    );
  }

  /**
   * Writes results.json over the folder's instances (this run's, and earlier ones it did not run
   * again) and, unless interrupted, rewrites instances.jsonl to one line each. Undefined when this
   * run finished nothing (the folder's results stay as they were) or it already wrote them.
   */
  private writeResults(interrupted: boolean): RunResults | undefined {
    if (this.written || !this.options) return undefined;
    const manifest = this.provided().manifest;
    if (!manifest) return undefined;
    if (this.instances.length === 0 && this.notStarted.length === 0 && this.skipped.length === 0)
      return undefined;
    this.written = true;
    mkdirSync(this.outDir, { recursive: true });
    const now = new Set(this.instances.map(instanceKey));
    const kept = this.prior.filter((i) => !now.has(instanceKey(i)));
    const instances = [...kept, ...this.instances].sort(byInstanceOrder);
    const results: RunResults = {
      schemaVersion: 1,
      ...(interrupted ? { interrupted: true } : {}),
      manifest: folderManifest(
        // Built once by the global setup; under watch the task files are hashed again (edited since).
        this.vitest.config.watch
          ? { ...manifest, taskFiles: taskFileHashes(taskIndex(this.options.tasksDirs)) }
          : manifest,
        instances,
        this.options,
        {
          planned: this.progress.total,
          ran: this.ran,
          resumed: this.instances.length - this.ran,
          kept: kept.length,
          paidUsd: this.paidUsd,
        },
      ),
      summary: summarize(instances),
      instances,
      ...(this.notStarted.length > 0 ? { notStarted: this.notStarted } : {}),
      ...(this.skipped.length > 0 ? { skipped: this.skipped } : {}),
    };
    writeFileSync(path.join(this.outDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
    // An interrupted run keeps every earlier line: the rerun resumes from them.
    if (!interrupted) {
      // One line per instance of the folder (earlier lines of retried or stale instances dropped).
      const jsonl = path.join(this.outDir, "instances.jsonl");
      writeFileSync(
        `${jsonl}.tmp`,
        instances.map(({ resumed: _, ...i }) => `${JSON.stringify(i)}\n`).join(""),
      );
      renameSync(`${jsonl}.tmp`, jsonl);
    }
    return results;
  }
}
