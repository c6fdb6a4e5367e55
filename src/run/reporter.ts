import path from "node:path";
import type { TestAnnotation } from "vitest";
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, Vitest } from "vitest/node";
import {
  feed,
  type Progress,
  renderFinishedLine,
  renderTotals,
  startProgress,
} from "../reporting/progress.ts";
import { renderRunEnd } from "../reporting/summary.ts";
import { ResultsRecorder } from "../results/recorder.ts";
import { taskFileHashes } from "../results/runManifest.ts";
import type { RunResults } from "../results/types.ts";
import { taskIndex } from "../tasks/files.ts";
import { phase } from "./phases.ts";
import "./vitest.ts";
import { outDir, type RunOptions } from "../runOptions.ts";

const BENCHMARK_FILE = path.join("tests", "benchmark", "benchmark.test.ts");
const isBenchmark = (moduleId: string) => moduleId.endsWith(BENCHMARK_FILE);

/**
 * The benchmark's Vitest reporter, an adapter from Vitest's events to the results recorder
 * (src/results/recorder.ts, docs/ARCHITECTURE.md "Results") and the progress lines: each benchmark
 * test's outcome (`meta().questbench`) is recorded as it finishes (appended to `instances.jsonl`), and
 * at the end of the run the recorder writes `results.json` over every instance of the output folder
 * (docs/RUNNING.md "The output folder"). After Ctrl-C or a SIGTERM it has results.json written marked
 * `interrupted` and says so in one line. The run's results stay in memory as {@link results} (what
 * `runBenchmark` returns). All text comes from the pure renderers of src/reporting; output goes
 * through Vitest's logger.
 *
 * `standalone` (the CLI): no other reporter runs, so this one shows each finished instance with its
 * score, a live line in a terminal, and the errors, on stdout. Beside the reporters of plain
 * `npx vitest` (README "Plain Vitest and watch mode") stdout is theirs (`--reporter=json > out.json`
 * parses): this one writes to stderr only, and no line per instance (Vitest's reporter lists each
 * test already), only provider retries, the fork's skipped tasks and the score table at the end.
 */
export default class QuestbenchReporter implements Reporter {
  private vitest!: Vitest;
  /** Undefined when the session runs no benchmark (e.g. `vitest --project unit`): the reporter stays idle. */
  private options: RunOptions | undefined;
  /** This run's recorder, created as the run starts. */
  private recorder: ResultsRecorder | undefined;
  private progress: Progress = startProgress(0, Date.now());
  private live = false;

  constructor(private readonly settings: { standalone?: boolean } = {}) {}

  /** The results.json this run wrote, in memory; undefined until it ends, or when it recorded nothing. */
  get results(): RunResults | undefined {
    return this.recorder?.results;
  }

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

  /** The context of the project that runs the benchmark: the repository's `benchmark`, a dependent's preset (`questbench` by default), the CLI's root. */
  private provided() {
    const project =
      this.vitest.projects.find((p) => p.getProvidedContext().questbench !== undefined) ??
      this.vitest.getRootProject();
    return project.getProvidedContext() as Partial<ReturnType<typeof project.getProvidedContext>>;
  }

  private get tty() {
    return Boolean((this.vitest.logger.outputStream as NodeJS.WriteStream).isTTY);
  }

  onTestRunStart() {
    // Watch mode reruns: start every run from empty state.
    this.options = this.provided().questbench;
    this.recorder = undefined;
    if (!this.options) return;
    this.recorder = new ResultsRecorder({ outDir: path.resolve(outDir(this.options)) });
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
      this.say(
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
    if (!this.recorder || !isBenchmark(testCase.module.moduleId)) return;
    const outcome = testCase.meta().questbench;
    if (this.settings.standalone)
      for (const error of testCase.result().errors ?? []) this.printError(testCase.fullName, error);
    if (!outcome) return;
    this.progress = feed(this.progress, outcome);
    if (this.settings.standalone)
      this.printLine(renderFinishedLine(testCase.name, outcome, this.progress, Date.now()), false);
    this.recorder.record(outcome);
  }

  /**
   * Text of this reporter's: stdout when it is the only reporter (the CLI), else stderr, which leaves
   * stdout to the reporters the Vitest command line chose.
   */
  private say(text: string) {
    if (this.settings.standalone) this.vitest.logger.log(text);
    else this.vitest.logger.error(text);
  }

  /**
   * One progress line. Without a terminal: printed with the totals. In a terminal (the CLI only): the
   * line scrolls up and the live totals stay last; a finished instance's line drops its totals.
   */
  private printLine(line: string, withTotals: boolean) {
    const now = Date.now();
    if (!this.tty) {
      this.say(withTotals ? `${line}  [${renderTotals(this.progress, now)}]` : line);
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
    if (!this.recorder) return;
    const results = this.finish(true);
    if (!results && this.recorder.results) return; // written already
    this.clearLive();
    const where = path.relative(process.cwd(), this.recorder.resultsPath) || "results.json";
    const finished = this.recorder.recorded;
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
    const results = this.finish(reason === "interrupted");
    phase("reporter: results.json written");
    if (!results || !this.recorder) return;
    this.say(
      `\n${renderRunEnd(results, this.options)}\nResults: ${path.relative(process.cwd(), this.recorder.resultsPath)}`,
    );
  }

  /**
   * Has the recorder write results.json (see `ResultsRecorder.finish`) with the global setup's
   * manifest; undefined without one (the setup failed), when nothing was recorded or it was written.
   */
  private finish(interrupted: boolean): RunResults | undefined {
    const manifest = this.provided().manifest;
    if (!this.recorder || !this.options || !manifest) return undefined;
    return this.recorder.finish({
      // Built once by the global setup; under watch the task files are hashed again (edited since).
      manifest: this.vitest.config.watch
        ? { ...manifest, taskFiles: taskFileHashes(taskIndex(this.options.tasksDirs)) }
        : manifest,
      options: this.options,
      planned: this.progress.total,
      interrupted,
    });
  }
}
