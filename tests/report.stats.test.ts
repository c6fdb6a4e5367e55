import { describe, expect, test } from "vitest";
import { leaderboardRow } from "../src/reporting/leaderboard.ts";
import { modelPairs, pairsTable, passKTable, statsTables } from "../src/reporting/statsTables.ts";
import { paperTables, tableHtml, tableMarkdown } from "../src/reporting/tables.ts";
import type { MergedRun } from "../src/results/merge.ts";
import type { InstanceResult, RunManifest } from "../src/results/types.ts";

const instance = (taskId: string, split: "atomic" | "composite", epoch: number, score: number, seed = 1) =>
  ({ taskId, split, seed, epoch, score, passed: score >= 60, failure: null }) as InstanceResult;

/** A merged run of one model: per task the scores of epochs 1, 2, … */
const runOf = (model: string, scores: Record<string, number[]>, seed = 1): MergedRun => {
  const instances = Object.entries(scores).flatMap(([taskId, xs]) =>
    xs.map((s, e) => instance(taskId, taskId.startsWith("c") ? "composite" : "atomic", e + 1, s, seed)),
  );
  return {
    model,
    manifest: {} as RunManifest,
    sources: [],
    results: { schemaVersion: 1, manifest: {} as RunManifest, summary: {} as never, instances },
  };
};

// Two epochs each. Differences A − B per instance: t1 0, +100; t2 +60, 0; c1 0, −30.
const A = runOf("model-a", { t1: [100, 100], t2: [100, 40], c1: [80, 50] });
const B = runOf("model-b", { t1: [100, 0], t2: [40, 40], c1: [80, 80] });

describe("pass^k beside pass@k, per model and split", () => {
  test("gives the hand-computed means over tasks", () => {
    const t = passKTable([B, A]);
    expect(t.header).toEqual(["Model", "Split", "Tasks", "k", "pass@1", "pass@k", "pass^k"]);
    // A ranks first (total 235 against 170). A atomic: t1 passes 2/2, t2 1/2 → pass@1 (1 + ½)/2,
    // pass@2 1, pass^2 (1 + 0)/2. Composite c1 1/2 → ½, 1, 0. All three tasks: pass^2 = 1/3.
    expect(t.rows).toEqual([
      ["model-a", "Atomic", "2", "2", "75.0%", "100.0%", "50.0%"],
      ["model-a", "Composite", "1", "2", "50.0%", "100.0%", "0.0%"],
      ["model-a", "All", "3", "2", "66.7%", "100.0%", "33.3%"],
      ["model-b", "Atomic", "2", "2", "25.0%", "50.0%", "0.0%"],
      ["model-b", "Composite", "1", "2", "100.0%", "100.0%", "100.0%"],
      ["model-b", "All", "3", "2", "50.0%", "66.7%", "33.3%"],
    ]);
  });

  test("a model run on one split gets no repeated All row", () => {
    const atomicOnly = runOf("atomic-only", { t1: [100] });
    expect(passKTable([atomicOnly]).rows).toEqual([
      ["atomic-only", "Atomic", "1", "1", "100.0%", "100.0%", "100.0%"],
    ]);
  });
});

describe("pairwise comparisons: the task is the unit", () => {
  test("per-task mean differences, wins/losses/ties and sign test over tasks, hand-computed", () => {
    const [pair] = modelPairs([B, A]);
    // Per task A − B of the means over 2 epochs: t1 +50, t2 +30, c1 −15 → mean 65/3; 2 wins, 1 loss
    // → p = min(1, 2 · (1 + 3)/8) = 1.
    expect(pair).toMatchObject({
      a: "model-a",
      b: "model-b",
      n: 3,
      instances: 6,
      wins: 2,
      losses: 1,
      ties: 0,
      signP: 1,
    });
    expect(pair!.mean).toBeCloseTo(65 / 3, 12);
    expect(pair!.bootstrap95![0]).toBeLessThan(pair!.mean);
    expect(pair!.bootstrap95![1]).toBeGreaterThan(pair!.mean);
    // Seeded: a second report gives the same interval.
    expect(modelPairs([A, B])[0]!.bootstrap95).toEqual(pair!.bootstrap95);
  });

  test("two models over 7 tasks × 3 epochs: p and intervals as scipy computes them over tasks, not instances", () => {
    // Independently computed (scipy 1.17, numpy) from the same scores:
    //   d = per-task mean differences = [60, −10, 0, 66.67, 10, 0, 10], mean 19.5238
    //   stats.binomtest(4, 5).pvalue = 0.375 (4 tasks won, 1 lost, 2 tied); over the 21 instances
    //   as if independent it would be binomtest(9, 11).pvalue = 0.0654
    //   stats.ttest_1samp(d, 0).confidence_interval(0.95) = (−8.922252950284854, 47.969871997903894)
    //   the exact bootstrap distribution (all 7^7 resamples of the tasks): 2.5 % 0.0, 97.5 % 40.952
    //   model A: per-task means' t CI (40.50327415840654, 105.21101155587918), mean 72.857;
    //   SD of its three epoch averages [75.714, 72.857, 70.0] = 2.857142857142854
    const a = runOf("model-a", {
      t1: [100, 100, 100],
      t2: [100, 70, 100],
      t3: [80, 80, 80],
      t4: [100, 100, 100],
      t5: [50, 60, 70],
      t6: [0, 0, 0],
      t7: [100, 100, 40],
    });
    const b = runOf("model-b", {
      t1: [40, 40, 40],
      t2: [100, 100, 100],
      t3: [80, 80, 80],
      t4: [0, 0, 100],
      t5: [50, 50, 50],
      t6: [0, 0, 0],
      t7: [70, 70, 70],
    });
    const [pair] = modelPairs([a, b]);
    expect(pair).toMatchObject({ n: 7, instances: 21, wins: 4, losses: 1, ties: 2, signP: 0.375 });
    expect(pair!.mean).toBeCloseTo(19.523809523809522, 9);
    expect(pair!.t95![0]).toBeCloseTo(-8.922252950284854, 6);
    expect(pair!.t95![1]).toBeCloseTo(47.969871997903894, 6);
    // 10,000 seeded resamples against the exact bootstrap quantiles: within one resample step.
    expect(pair!.bootstrap95![0]).toBeCloseTo(0, 0);
    expect(Math.abs(pair!.bootstrap95![1] - 40.95238095238095)).toBeLessThan(1.5);
    // The Avg (run) beside its between-task interval and the re-run noise, apart.
    const row = leaderboardRow(a);
    expect(row.avg).toBe(72.9);
    expect(row.avgCi95).toEqual([40.5, 105.2]);
    expect(row.rerunSd).toBe(2.9);
    const t1 = paperTables([row], 0).find((t) => t.id === "table1")!;
    const at = (h: string) => t1.rows[0]![t1.header.indexOf(h)];
    expect([at("Avg (run)"), at("95 % CI (tasks)"), at("Re-run SD")]).toEqual([
      "72.9",
      "[40.5, 105.2]",
      "2.9",
    ]);
  });

  test("a deterministic model has no re-run noise, and one task has no interval (—, never ± 0)", () => {
    const steady = runOf("steady", { t1: [100, 100, 100], t2: [20, 20, 20] });
    expect(leaderboardRow(steady)).toMatchObject({ avg: 60, rerunSd: 0 });
    const one = leaderboardRow(runOf("one", { t1: [70] }));
    expect(one).toMatchObject({ avgCi95: null, rerunSd: null });
    const t1 = paperTables([one], 0).find((t) => t.id === "table1")!;
    expect(t1.rows[0]![t1.header.indexOf("95 % CI (tasks)")]).toBe("—");
    expect(t1.header).not.toContain("Re-run SD");
  });

  test("unequal epochs: the interval is centred on the Avg beside it (the mean of the task means)", () => {
    // t1 ran 3 epochs, t2 one: Avg (run) = (100 + 0) / 2 = 50, not the instance mean 75.
    const row = leaderboardRow(runOf("uneven", { t1: [100, 100, 100], t2: [0] }));
    expect(row.avg).toBe(50);
    expect((row.avgCi95![0] + row.avgCi95![1]) / 2).toBeCloseTo(50, 6);
    // Not every task has every epoch: no re-run SD.
    expect(row.rerunSd).toBeNull();
  });

  test("pairs only the instances in common: same task, seed and epoch", () => {
    // C ran t1 epoch 1 (shared), t9 (nobody else) and t1 under another seed (other parameters).
    const C = runOf("model-c", { t1: [50], t9: [100] });
    C.results.instances.push(instance("t2", "atomic", 1, 0, 99));
    const pairs = modelPairs([A, B, C]);
    expect(pairs.map((p) => [p.a, p.b, p.n, p.mean])).toEqual([
      ["model-a", "model-b", 3, 65 / 3],
      ["model-a", "model-c", 1, 50],
      ["model-b", "model-c", 1, 50],
    ]);
    expect(pairs[1]).toMatchObject({ bootstrap95: null, t95: null });
    const disjoint = runOf("model-d", { t1: [100] }, 7);
    expect(modelPairs([A, disjoint])).toEqual([]);
    expect(pairsTable([A, disjoint])).toBeNull();
  });

  test("leaves provider errors out of the pairing", () => {
    const withError = runOf("model-b", { t1: [100, 0], t2: [40, 40], c1: [80, 80] });
    withError.results.instances[0]!.failure = { class: "provider_error", reason: "HTTP 429" } as never;
    expect(modelPairs([A, withError])[0]).toMatchObject({ n: 3, instances: 5 });
  });

  test("renders in Markdown and HTML after the pass^k table", () => {
    const tables = statsTables([A, B]);
    expect(tables.map((t) => t.id)).toEqual(["passk", "pairs"]);
    const md = tableMarkdown(tables[1]!);
    expect(md).toContain("| A | B | n | Δ | t 95 % CI | bootstrap 95 % CI | W/L/T | p |");
    expect(md).toMatch(
      /\| model-a \| model-b \| 3 \(6\) \| \+21\.7 \| \[-?\d+\.\d, \+\d+\.\d\] \| \[[+-]?\d+\.\d, \+\d+\.\d\] \| 2\/1\/0 \| 1\.000 \|/,
    );
    expect(md).toContain("10000 resamples of the tasks");
    expect(tableHtml(tables[1]!)).toContain('data-table="pairs"');
  });
});
