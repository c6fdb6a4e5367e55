import { describe, expect, test } from "vitest";
import { leaderboardRow } from "../src/reporting/leaderboard.ts";
import { renderSummary } from "../src/reporting/summary.ts";
import { summarize } from "../src/results/summarize.ts";
import type { InstanceResult, RunManifest, RunResults } from "../src/results/types.ts";

const usage = {
  calls: 1,
  cachedCalls: 0,
  inputTokens: 2000,
  outputTokens: 500,
  costUsd: 0.0135,
  spentUsd: 0.0135,
};
let id = 0;
const instance = (
  split: "atomic" | "composite",
  score: number,
  providerError = false,
  set: "paper" | "hard" | "custom" = "paper",
) =>
  ({
    taskId: `t${id++}`,
    split,
    set,
    score,
    passed: score >= 60,
    failure: providerError ? { class: "provider_error", code: "rate_limited", reason: "HTTP 429" } : null,
    usage: providerError ? undefined : usage,
  }) as InstanceResult;

describe("summary of a provider-model run", () => {
  test("leaves provider errors out of scores, maxima and counts, and reports them and the spend apart", () => {
    const summary = summarize([
      instance("atomic", 100),
      instance("atomic", 0, true),
      instance("atomic", 40),
      instance("composite", 0, true),
    ]);
    expect(summary.atomic).toEqual({ score: 140, max: 200, passed: 1, count: 2, tasks: 2 });
    expect(summary.composite).toEqual({ score: 0, max: 0, passed: 0, count: 0, tasks: 0 });
    expect(summary.compositeMetrics).toBeNull();
    expect(summary.providerErrors).toEqual({ atomic: 1, composite: 1, total: 2 });
    expect(summary.usage).toEqual({
      calls: 2,
      cachedCalls: 0,
      inputTokens: 4000,
      outputTokens: 1000,
      costUsd: 0.027,
      spentUsd: 0.027,
    });
    expect(renderSummary(summary, "claude-sonnet")).toMatchInlineSnapshot(`
      "EVM-QuestBench — model claude-sonnet
      split                    score      passed     avg
      Paper atomic         140 / 200       1 / 2    70.0
      Tokens: 4000 in, 1000 out in 2 calls (0 from the cache) · cost $0.0270, paid by this run $0.0270
      Provider errors: 2 instance(s) not scored (left out of scores and maxima above); run the same command again to retry them."
    `);
  });
});

describe("a task pack's instances beside the paper's", () => {
  test("count in no paper figure: providerErrors splits them off, pass@1 and pass@k leave them out", () => {
    const all = [
      instance("atomic", 100),
      instance("atomic", 0, true),
      instance("atomic", 0, false, "custom"),
      instance("composite", 0, true, "custom"),
      instance("atomic", 0, true, "hard"),
    ];
    const summary = summarize(all);
    expect(summary.total).toMatchObject({ score: 100, max: 100, count: 1 });
    expect(summary.providerErrors).toEqual({ atomic: 1, composite: 0, total: 1, hard: 1, custom: 1 });
    // The line counts every instance left without a score, whichever set it belongs to.
    expect(renderSummary(summary, "claude-sonnet")).toContain("Provider errors: 3 instance(s) not scored");
    const results = { instances: all, summary } as unknown as RunResults;
    const row = leaderboardRow({ model: "m", manifest: {} as RunManifest, sources: [], results });
    // Only the paper's scored task: the pack's 0 would have made these 50.
    expect([row.passed, row.instances, row.passAt1, row.passAtK, row.k]).toEqual([1, 1, 100, 100, 1]);
  });
});
