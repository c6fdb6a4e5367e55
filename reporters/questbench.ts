import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestCase, TestModule } from "vitest/node";
import { buildManifest } from "../src/reporting/manifest.ts";
import { renderShortfalls, renderSummary, summarize } from "../src/reporting/summary.ts";
import type { InstanceResult, RunResults } from "../src/reporting/types.ts";
import { optionsFromEnvironment, type RunOptions } from "../src/runOptions.ts";
import { loadTasks } from "../src/tasks/load.ts";
import { loadWorld } from "../src/world/world.ts";

declare module "vitest" {
  interface TaskMeta {
    /** The instance result a benchmark test hands to this reporter. */
    questbench?: InstanceResult;
  }
}

/**
 * The benchmark's Vitest reporter: a thin adapter. It collects each test's `meta().questbench`,
 * appends it to `instances.jsonl` as soon as it finishes (a crash keeps every finished result), and
 * at the end writes `results.json` and prints the split totals (rendering lives in src/reporting).
 */
export default class QuestbenchReporter implements Reporter {
  private instances: InstanceResult[] = [];
  private options: RunOptions = optionsFromEnvironment();
  private outDir = "";

  onTestRunStart() {
    // Watch mode reruns: start every run from empty state.
    this.instances = [];
    this.options = optionsFromEnvironment();
    this.outDir = path.resolve(this.options.out);
  }

  onTestCaseResult(testCase: TestCase) {
    const result = testCase.meta().questbench;
    if (!result) return;
    if (this.instances.length === 0) {
      mkdirSync(this.outDir, { recursive: true });
      writeFileSync(path.join(this.outDir, "instances.jsonl"), "");
    }
    this.instances.push(result);
    appendFileSync(path.join(this.outDir, "instances.jsonl"), `${JSON.stringify(result)}\n`);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>) {
    if (this.instances.length === 0) return;
    const order = (i: InstanceResult) => `${i.split === "atomic" ? 0 : 1}/${i.taskId}/${i.epoch}`;
    const instances = [...this.instances].sort((a, b) => order(a).localeCompare(order(b)));
    const world = loadWorld();
    const taskFiles = Object.fromEntries(loadTasks().map((t) => [t.spec.file, t.spec.sha256]));
    const results: RunResults = {
      schemaVersion: 1,
      manifest: buildManifest(this.options, taskFiles, { worldId: world.worldId, chainId: world.chainId }),
      summary: summarize(instances),
      instances,
    };
    writeFileSync(path.join(this.outDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
    const shortfalls = renderShortfalls(instances);
    process.stdout.write(`\n${renderSummary(results.summary, this.options.model)}\n`);
    if (shortfalls.length > 0) process.stdout.write(`Instances below 100:\n${shortfalls.join("\n")}\n`);
    process.stdout.write(
      `Results: ${path.relative(process.cwd(), path.join(this.outDir, "results.json"))}\n`,
    );
  }
}
