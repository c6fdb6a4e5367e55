import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AjvModule from "ajv";
import { beforeAll, describe, expect, test } from "vitest";
import { hardBankSize } from "../src/reporting/leaderboard.ts";
import { writeReport } from "../src/reporting/report.ts";
import { renderSummary } from "../src/reporting/summary.ts";
import { MergeError } from "../src/results/merge.ts";
import { summarize } from "../src/results/summarize.ts";
import type { InstanceResult, RunResults } from "../src/results/types.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";
import { fixtureInstance, fixtureResults, rowsOf, writeRun } from "./helpers/reportFixtures.ts";

const Ajv = AjvModule as unknown as typeof AjvModule.default;

/** One hand-made instance of a task set (a composite: K_opt = K_act = 2). */
const instance = (
  model: string,
  taskId: string,
  set: "paper" | "hard",
  split: "atomic" | "composite",
  epoch: number,
  score: number,
) =>
  fixtureInstance(model, taskId, epoch, score, {
    set,
    category: set === "hard" ? "judgement" : split,
    subcategory: "fixture",
    difficulty: "hard",
    ...(split === "composite" ? { rounds: { kOpt: 2, kAct: 2, kFailed: 0, plan: "1. a\n2. b" } } : {}),
  });
const results = (model: string, instances: InstanceResult[]): RunResults =>
  fixtureResults(model, instances, { summary: summarize(instances) });

// Model A: paper a1 = 100, paper c1 = 50; hard h1 = 100 and 0 (mean 50), hard hc1 = 80.
const A = [
  instance("model-a", "a1", "paper", "atomic", 1, 100),
  instance("model-a", "c1", "paper", "composite", 1, 50),
  instance("model-a", "h1", "hard", "atomic", 1, 100),
  instance("model-a", "h1", "hard", "atomic", 2, 0),
  instance("model-a", "hc1", "hard", "composite", 1, 80),
];
// Model B: paper a1 = 100, c1 = 100; hard h1 = 100 twice, hc1 = 0.
const B = [
  instance("model-b", "a1", "paper", "atomic", 1, 100),
  instance("model-b", "c1", "paper", "composite", 1, 100),
  instance("model-b", "h1", "hard", "atomic", 1, 100),
  instance("model-b", "h1", "hard", "atomic", 2, 100),
  instance("model-b", "hc1", "hard", "composite", 1, 0),
];

describe("the hard split is reduced and reported apart from the paper total", () => {
  test("summary: atomic, composite and the paper total hold only paper tasks; hard has its own sub-totals", () => {
    const s = summarize(A);
    // Paper: a1 100 + c1 50 = 150 of 200; passed 1 of 2.
    expect(s.atomic).toEqual({ score: 100, max: 100, passed: 1, count: 1, tasks: 1 });
    expect(s.composite).toEqual({ score: 50, max: 100, passed: 0, count: 1, tasks: 1 });
    expect(s.total).toEqual({ score: 150, max: 200, passed: 1, count: 2, tasks: 2 });
    // Hard: h1 mean (100 + 0)/2 = 50, hc1 80: 130 of 200; passed 2 of 3.
    expect(s.hard).toEqual({
      atomic: { score: 50, max: 100, passed: 1, count: 2, tasks: 1 },
      composite: { score: 80, max: 100, passed: 1, count: 1, tasks: 1 },
      total: { score: 130, max: 200, passed: 2, count: 3, tasks: 2 },
    });
    // Table 2's composite metrics count the paper's composite instance only.
    expect(s.compositeMetrics?.count).toBe(1);
  });

  test("the end-of-run table prints the paper's rows and the hard split's apart, labelled by what ran", () => {
    const text = renderSummary(summarize(A), "model-a");
    expect(text.split("\n").slice(1, 8)).toEqual([
      "split                    score      passed     avg",
      "Paper atomic         100 / 100       1 / 1   100.0",
      "Paper composite       50 / 100       0 / 1    50.0",
      // Two of the 107 paper tasks: a subset, never "Paper total".
      "Paper subset         150 / 200       1 / 2    75.0",
      "Hard atomic           50 / 100       1 / 2    50.0",
      "Hard composite        80 / 100       1 / 1    80.0",
      "Hard total           130 / 200       2 / 3    65.0",
    ]);
  });

  test("a hard-only run prints only the hard rows", () => {
    const text = renderSummary(summarize(A.filter((i) => i.set === "hard")), "model-a");
    expect(text).not.toContain("Paper");
    expect(text).toContain("Hard total           130 / 200       2 / 3    65.0");
  });

  test("results written before the hard split (no set) count as paper tasks", () => {
    const old = A.map(({ set: _set, ...rest }) => rest as InstanceResult);
    const s = summarize(old);
    // a1 100 + c1 50 + h1 50 + hc1 80 = 280 of 400.
    expect(s.total).toEqual({ score: 280, max: 400, passed: 3, count: 5, tasks: 4 });
    expect(s.hard?.total.tasks).toBe(0);
  });

  test("results.json with set and refusal fields validates against the schema", () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(
      JSON.parse(readFileSync(path.join(PROJECT_ROOT, "src/results/results.schema.json"), "utf8")),
    );
    const refused = { ...A[2]!, refusal: { reason: "the amount exceeds the balance" } };
    expect(validate(results("model-a", [...A, refused])), JSON.stringify(validate.errors)).toBe(true);
    const wrongSet = { ...A[0]!, set: "extra" } as unknown as InstanceResult;
    expect(validate(results("model-a", [wrongSet]))).toBe(false);
  });

  test("the hard split's size is read from the run's manifest, never from today's task folders", () => {
    const manifest = results("model-a", A).manifest;
    const taskFiles = {
      "tasks/hard/h1/task.json": "a",
      "tasks/hard/h2/task.json": "b",
      "tasks/hard/h3/task.json": "c",
      "tasks/atomic/a1/task.json": "d",
      "/abs/pack/tasks/hard/p1/task.json": "e",
    };
    expect(hardBankSize({ manifest: { ...manifest, taskFiles } })).toBe(3);
    expect(hardBankSize({ manifest: { ...manifest, taskFiles } }, 5)).toBe(5);
    expect(hardBankSize({ manifest: { ...manifest, taskFiles: {} } })).toBe(0);
  });

  describe("leaderboard.md, leaderboard.tex and report.html", () => {
    const out = mkdtempSync(path.join(tmpdir(), "qb-hard-report-"));
    // The fixtures' manifests list no task file: the bank is the hard tasks they ran.
    const bank = 2;
    let md: string;
    beforeAll(async () => {
      await writeReport({ inputs: [writeRun(results("model-a", A)), writeRun(results("model-b", B))], out });
      md = readFileSync(path.join(out, "leaderboard.md"), "utf8");
    }, 600_000);

    test("Table 1 keeps Total and coverage to the paper's tasks and shows Hard with its coverage beside them", () => {
      // A: Atom 100, Comp 50, Total 150, Avg 150/107 = 1.4, Avg (run) 150/2 = 75.0; paper task means 100, 50:
      // scipy.stats.ttest_1samp([100, 50], 0).confidence_interval(0.95) = (−242.66, 392.66) (t with 1 df).
      // B: 200, Avg 100.0, task means 100, 100: [100.0, 100.0]. Hard: A 130, B 100 + 0 = 100.
      expect(rowsOf(md, "Table 1:")).toEqual([
        `| 1 | model-b | 100 | 100 | 200 | 1.9 | 100.0 | [100.0, 100.0] | 100% | 2/107 (1/62 · 1/45) | 100 | 2/${bank} | default |`,
        `| 2 | model-a | 100 | 50 | 150 | 1.4 | 75.0 | [-242.7, 392.7] | 100% | 2/107 (1/62 · 1/45) | 130 | 2/${bank} | default |`,
      ]);
    });

    test("the hard table gives hard atomic and composite sub-totals, ranked by Hard", () => {
      // A: Hard Atom 50, Hard Comp 80, Hard 130, Avg 65.0; B: 100, 0, 100, Avg 50.0.
      expect(rowsOf(md, "Hard split")).toEqual([
        `| model-a | 50 | 80 | 130 | 65.0 | 2/${bank} |`,
        `| model-b | 100 | 0 | 100 | 50.0 | 2/${bank} |`,
      ]);
    });

    test("Table 10 (paper coverage and averages) leaves the hard tasks out", () => {
      expect(rowsOf(md, "Table 10:")).toEqual([
        // Atom / 62 and Comp / 45: B 1.6, 2.2; A 1.6, 1.1 (medians 1.6 and 1.65).
        "| model-b | 1/62 | 1/45 | 1.6 | 2.2 | 200 | High-High |",
        "| model-a | 1/62 | 1/45 | 1.6 | 1.1 | 150 | High-Low |",
      ]);
    });

    test("leaderboard.tex and report.html carry the Hard column and the hard table", () => {
      const tex = readFileSync(path.join(out, "leaderboard.tex"), "utf8");
      expect(tex).toContain("\\label{tab:questbench-hard}");
      expect(tex).toContain(
        "model-a & 100 & 50 & 150 & 1.4 & 75.0 & [-242.7, 392.7] & 100\\% & 2/107 (1/62 · 1/45) & 130",
      );
      const html = readFileSync(path.join(out, "report.html"), "utf8");
      expect(html).toContain('data-table="hard"');
      expect(html).toContain('<th class="num">Hard</th>');
      expect(html).toContain("hard split, fixture");
    });
  });

  test("report refuses a model that ran the hard split beside one that did not", async () => {
    const a = writeRun(results("model-a", A));
    const b = writeRun(
      results(
        "model-b",
        B.filter((i) => i.set === "paper"),
      ),
    );
    await expect(
      writeReport({ inputs: [a, b], out: mkdtempSync(path.join(tmpdir(), "qb-x-")) }),
    ).rejects.toThrow(MergeError);
    await expect(
      writeReport({ inputs: [a, b], out: mkdtempSync(path.join(tmpdir(), "qb-x-")) }),
    ).rejects.toThrow(/task sets differ: .*model-b lacks h1, hc1/);
  });
});
