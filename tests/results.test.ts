import { describe, expect, test } from "vitest";
import { leaderboardRow } from "../src/reporting/leaderboard.ts";
import { renderSummary } from "../src/reporting/summary.ts";
import { commonK, meanPassAtK, splitAverage, taskScores } from "../src/results/reduce.ts";
import { summarize } from "../src/results/summarize.ts";
import type { InstanceResult, RunManifest } from "../src/results/types.ts";

const instance = (taskId: string, split: "atomic" | "composite", epoch: number, score: number) =>
  ({ taskId, split, epoch, score, passed: score >= 60, failure: null }) as InstanceResult;

// A run with --epochs 3: per task the three epochs differ, so a sum over instances (max = count × 100)
// and a mean per task first give different split scores; both views must use the latter.
const epochs3 = [
  ...[100, 50, 0].map((s, e) => instance("a1", "atomic", e + 1, s)),
  ...[100, 100, 70].map((s, e) => instance("a2", "atomic", e + 1, s)),
  ...[30, 60, 90].map((s, e) => instance("c1", "composite", e + 1, s)),
];

describe("reducers: per task over epochs, then per split, then per model", () => {
  test("summary and leaderboard give the same split averages for a run with --epochs 3", () => {
    const summary = summarize(epochs3);
    const row = leaderboardRow({
      model: "m",
      manifest: {} as RunManifest,
      sources: [],
      results: { schemaVersion: 1, manifest: {} as RunManifest, summary, instances: epochs3 },
    });
    // a1 = 50, a2 = 90: atomic 140 / 200 over 2 tasks; c1 = 60.
    expect(summary.atomic).toEqual({ score: 140, max: 200, passed: 4, count: 6, tasks: 2 });
    expect(summary.composite).toEqual({ score: 60, max: 100, passed: 2, count: 3, tasks: 1 });
    // Table 10's averages divide by the paper's 62 and 45 (as Table 1's Avg by 107): 140 / 62, 60 / 45.
    expect(row.atomicAvg).toBe(2.3);
    expect(row.compositeAvg).toBe(1.3);
    expect(row.atomic).toBe(summary.atomic.score);
    expect(row.total).toBe(summary.total.score);
    expect(row.avg).toBeCloseTo(splitAverage(summary.total)!, 1);
    expect(renderSummary(summary, "m")).toContain("Paper atomic         140 / 200       4 / 6    70.0");
  });

  test("Safety % counts the judged instances without a flag, in the summary and the leaderboard row", () => {
    const judged = [
      { ...instance("a1", "atomic", 1, 100), safety: [] },
      { ...instance("a2", "atomic", 1, 90), safety: ["no_min_out", "far_deadline"] },
      { ...instance("a3", "atomic", 1, 100), safety: [] },
      { ...instance("c1", "composite", 1, 100), safety: ["unlimited_approval"] },
      instance("c2", "composite", 1, 0), // not judged (e.g. schema_invalid): left out of the share
    ] as InstanceResult[];
    const summary = summarize(judged);
    expect(summary.safety).toEqual({
      judged: 4,
      safe: 2,
      pct: 50,
      flags: { no_min_out: 1, far_deadline: 1, unlimited_approval: 1 },
    });
    const row = leaderboardRow({
      model: "m",
      manifest: {} as RunManifest,
      sources: [],
      results: { schemaVersion: 1, manifest: {} as RunManifest, summary, instances: judged },
    });
    expect(row.safety).toBe(50);
    expect(renderSummary(summary, "m")).toContain("Safety: 50% (2 / 4 instances without a safety flag");
    expect(summarize(epochs3).safety).toBeUndefined();
  });

  test("pass@k over tasks uses the attempts every task has", () => {
    const tasks = taskScores(epochs3);
    expect(commonK(tasks)).toBe(3);
    // a1: 1 of 3 passed → pass@1 1/3; a2: 1; c1: 2/3 → mean 2/3. pass@3 is 1 for each.
    expect(meanPassAtK(tasks, 1)).toBeCloseTo(2 / 3, 10);
    expect(meanPassAtK(tasks, 3)).toBe(1);
  });

  test("leaves provider errors out of the task means", () => {
    const providerError = {
      ...instance("a1", "atomic", 4, 0),
      failure: { class: "provider_error", reason: "HTTP 429" },
    } as InstanceResult;
    expect(taskScores([...epochs3, providerError]).find((t) => t.taskId === "a1")).toEqual({
      taskId: "a1",
      split: "atomic",
      set: "paper",
      n: 3,
      passed: 1,
      mean: 50,
    });
  });
});
