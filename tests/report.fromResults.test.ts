import { execFile } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import { writeReport } from "../src/reporting/report.ts";
import { loadRuns } from "../src/results/load.ts";
import { MergeError } from "../src/results/merge.ts";
import type { RunResults } from "../src/results/types.ts";
import { PROJECT_ROOT, TASKS_DIR } from "../src/tasks/files.ts";
import { workflowPattern } from "../src/tasks/patterns.ts";

// The report renders from results.json alone (docs/ARCHITECTURE.md "A table or a figure"): a
// composite's workflow pattern is recorded in its result when it runs, so deleting the task pack
// that produced the results changes nothing in the report.
const bin = path.join(PROJECT_ROOT, "bin/questbench.mjs");
const work = mkdtempSync(path.join(tmpdir(), "qb-fromresults-"));
// As root the sandbox runs the pack's answers under unprivileged uids that must read them.
chmodSync(work, 0o755);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every file under `dir` by relative path, with its bytes. */
function files(dir: string, rel = ""): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const name of readdirSync(path.join(dir, rel)).sort()) {
    const r = path.join(rel, name);
    if (statSync(path.join(dir, r)).isDirectory()) for (const [k, v] of files(dir, r)) out.set(k, v);
    else out.set(r, readFileSync(path.join(dir, r)));
  }
  return out;
}

describe("the report from results.json alone", () => {
  test("a composite of a deleted task pack keeps its recorded pattern, byte for byte", async () => {
    // A pack with one composite, under an id the paper's pattern names do not know: its pattern is
    // the one derived from its workflow, and only the result can say so once the pack is gone.
    const pack = path.join(work, "pack");
    const task = path.join(pack, "composite", "my_approve_swap");
    cpSync(path.join(TASKS_DIR, "composite/composite_approve_swap_tokens"), task, { recursive: true });
    rmSync(path.join(task, "cases"), { recursive: true, force: true });
    const specFile = path.join(task, "task.json");
    const spec = readFileSync(specFile, "utf8").replace(/"id": "[^"]+"/, '"id": "my_approve_swap"');
    writeFileSync(specFile, spec);
    const pattern = workflowPattern((JSON.parse(spec) as { workflow: string[] }).workflow);
    expect(pattern).toBe("approve → swap");

    const out = path.join(work, "out");
    const run = await promisify(execFile)(
      process.execPath,
      [bin, "--tasks-dir", pack, "--tasks", "my_approve_swap", "--out", out],
      { cwd: work },
    ).catch((e: { stdout: string; stderr: string }) => {
      throw new Error(`run failed:\n${e.stdout}\n${e.stderr}`);
    });
    expect(run.stdout).toContain("my_approve_swap");
    const results = JSON.parse(readFileSync(path.join(out, "results.json"), "utf8")) as RunResults;
    expect(results.instances.map((i) => [i.taskId, i.pattern])).toEqual([["my_approve_swap", pattern]]);

    const before = path.join(work, "report-before");
    await writeReport({ inputs: [out], out: before });
    // The merged run carries the recorded pattern; a pack's composite is its own split, so the paper's
    // pattern figure (Figure 4) draws no bar for it (docs/SCORING.md "Totals").
    const merged = readdirSync(path.join(before, "runs")).map(
      (m) => JSON.parse(readFileSync(path.join(before, "runs", m, "results.json"), "utf8")) as RunResults,
    );
    expect(merged.flatMap((r) => r.instances.map((i) => [i.taskId, i.set, i.pattern]))).toEqual([
      ["my_approve_swap", "custom", pattern],
    ]);
    const fig4 = readFileSync(path.join(before, "figures", "fig4-workflow-patterns.svg"), "utf8");
    expect(fig4).not.toContain(`>${pattern}<`);

    rmSync(pack, { recursive: true, force: true });
    const after = path.join(work, "report-after");
    await writeReport({ inputs: [out], out: after });
    const a = files(before);
    const b = files(after);
    expect([...b.keys()]).toEqual([...a.keys()]);
    // report.html says when it was generated; every other byte is the same.
    const when = /generated \d{4}-\d\d-\d\dT[\d:.]+Z/;
    for (const [name, bytes] of a)
      if (name === "report.html")
        expect(b.get(name)!.toString().replace(when, "generated T")).toBe(
          bytes.toString().replace(when, "generated T"),
        );
      else expect(b.get(name)?.equals(bytes), name).toBe(true);
  }, 600_000);

  test("a results.json that cannot be read is refused with its file named", () => {
    const dir = mkdtempSync(path.join(work, "bad-"));
    const file = path.join(dir, "results.json");
    writeFileSync(file, "{ not json");
    expect(() => loadRuns([dir])).toThrow(MergeError);
    expect(() => loadRuns([dir])).toThrow(`${file} is not JSON`);
    const bad = {
      schemaVersion: 1,
      manifest: { model: "m", taskFiles: {} },
      summary: {},
      instances: [{ taskId: "t", split: "atomic", seed: 1, epoch: 0, score: "100", passed: true }],
    };
    writeFileSync(file, JSON.stringify(bad));
    expect(() => loadRuns([file])).toThrow(
      `${file} is not a valid QuestBench results.json: instances[0].score is not a number`,
    );
  });
});
