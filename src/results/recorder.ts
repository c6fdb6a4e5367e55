/**
 * The results recorder (docs/ARCHITECTURE.md "Results"): the one writer of a run's output folder.
 * It records each instance's outcome as it finishes (a result is appended to `instances.jsonl` at
 * once, so a crash keeps it) and, when the run ends or is interrupted, writes `results.json` over
 * every instance of the folder: this run's, the resumed, and those earlier runs left that this run
 * did not select (docs/RUNNING.md "The output folder": a run adds to its folder). The Vitest
 * reporter (src/run/reporter.ts) only feeds it Vitest's events.
 */
import path from "node:path";
import type { RunOptions } from "../runOptions.ts";
import { appendInstance, RESULTS_FILE, readFolder, rewriteInstances, writeResultsFile } from "./folder.ts";
import { folderManifest } from "./folderManifest.ts";
import { byInstanceOrder, instanceKey } from "./instanceOrder.ts";
import type { InstanceOutcome, NotStarted } from "./outcome.ts";
import { summarize } from "./summarize.ts";
import type { InstanceResult, RunManifest, RunResults, SkippedInstance } from "./types.ts";

export type RecorderSettings = {
  /**
   * The output folder (`--out`, resolved). Its earlier results are always kept: `--fresh` only makes
   * the engine run the selected instances again (src/run/engine.ts), whose new results replace theirs.
   */
  outDir: string;
};

/** What {@link ResultsRecorder.finish} needs besides the recorded outcomes. */
export type FinishParameters = {
  /** The run's manifest (built by the global setup); the folder's `split`, `epochs` and `selection` are added. */
  manifest: RunManifest;
  options: Pick<RunOptions, "split" | "tasks" | "epochs" | "shard">;
  /** Instances this invocation planned (tasks × epochs after `--sample` and `--shard`). */
  planned: number;
  /** Ctrl-C, SIGTERM or Vitest's interrupted run: results.json is marked `interrupted`, instances.jsonl kept as is. */
  interrupted: boolean;
};

/** One run's recorder: create it as the run starts (it reads the folder's earlier results then). */
export class ResultsRecorder {
  readonly outDir: string;
  /** The folder's results before this run (instances.jsonl). */
  private readonly prior: InstanceResult[];
  private readonly instances: InstanceResult[] = [];
  private readonly notStarted: NotStarted[] = [];
  private readonly skipped: SkippedInstance[] = [];
  /** Of this run's instances: attempted now, and USD paid for them (null once a call had no price). */
  private ran = 0;
  private paidUsd: number | null = 0;
  private written: RunResults | undefined;
  private finished = false;

  constructor(settings: RecorderSettings) {
    this.outDir = settings.outDir;
    this.prior = readFolder(this.outDir);
  }

  /** `<outDir>/results.json`. */
  get resultsPath(): string {
    return path.join(this.outDir, RESULTS_FILE);
  }

  /** Instances of this run with a result (finished now or resumed). */
  get recorded(): number {
    return this.instances.length;
  }

  /** The results.json written by {@link finish}, in memory (undefined before, or when nothing was written). */
  get results(): RunResults | undefined {
    return this.written;
  }

  /**
   * Records one instance's outcome. A result attempted now is appended to instances.jsonl before this
   * returns; a resumed one is already there; `not_started` and `skipped` go to results.json only.
   */
  record(outcome: InstanceOutcome): void {
    if (outcome.kind === "not_started") return void this.notStarted.push(outcome.notStarted);
    if (outcome.kind === "skipped") return void this.skipped.push(outcome.skipped);
    this.instances.push(outcome.result);
    if (outcome.kind === "resumed") return;
    // What it paid (cache hits cost nothing; a model without a price has no figure).
    this.ran++;
    const usage = outcome.result.usage;
    if (usage)
      this.paidUsd = this.paidUsd === null || usage.spentUsd === null ? null : this.paidUsd + usage.spentUsd;
    appendInstance(this.outDir, outcome.result);
  }

  /**
   * Writes results.json over the folder's instances (this run's, and earlier ones it did not run
   * again, in results.json's order) and, unless interrupted, rewrites instances.jsonl to one line
   * each (an interrupted run keeps every earlier line: the rerun resumes from them). Once per run:
   * returns undefined when it already finished, or when this run recorded nothing (the folder's
   * results stay as they were).
   */
  finish(p: FinishParameters): RunResults | undefined {
    if (this.finished) return undefined;
    if (this.instances.length === 0 && this.notStarted.length === 0 && this.skipped.length === 0)
      return undefined;
    this.finished = true;
    const now = new Set(this.instances.map(instanceKey));
    const kept = this.prior.filter((i) => !now.has(instanceKey(i)));
    const instances = [...kept, ...this.instances].sort(byInstanceOrder);
    const results: RunResults = {
      schemaVersion: 1,
      ...(p.interrupted ? { interrupted: true } : {}),
      manifest: folderManifest(p.manifest, instances, p.options, {
        planned: p.planned,
        ran: this.ran,
        resumed: this.instances.length - this.ran,
        kept: kept.length,
        paidUsd: this.paidUsd,
      }),
      summary: summarize(instances),
      instances,
      ...(this.notStarted.length > 0 ? { notStarted: this.notStarted } : {}),
      ...(this.skipped.length > 0 ? { skipped: this.skipped } : {}),
    };
    writeResultsFile(this.outDir, results);
    if (!p.interrupted) rewriteInstances(this.outDir, instances);
    this.written = results;
    return results;
  }
}
