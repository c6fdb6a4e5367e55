import { describe, expect, test } from "vitest";
import { modelPairs, pairsTable, passKTable, statsTables } from "../src/reporting/statsTables.ts";
import { tableHtml, tableMarkdown } from "../src/reporting/tables.ts";
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

describe("pairwise comparisons over the instances both models ran", () => {
  test("mean difference, wins/losses/ties and sign test, hand-computed", () => {
    const [pair] = modelPairs([B, A]);
    // d = 0, 100, 60, 0, 0, −30: mean 130/6; 2 wins, 1 loss → p = min(1, 2 · (1 + 3)/8) = 1.
    expect(pair).toMatchObject({
      a: "model-a",
      b: "model-b",
      n: 6,
      wins: 2,
      losses: 1,
      ties: 3,
      signP: 1,
    });
    expect(pair!.mean).toBeCloseTo(130 / 6, 12);
    expect(pair!.ci95[0]).toBeLessThan(pair!.mean);
    expect(pair!.ci95[1]).toBeGreaterThan(pair!.mean);
    // Seeded: a second report gives the same interval.
    expect(modelPairs([A, B])[0]!.ci95).toEqual(pair!.ci95);
  });

  test("pairs only the instances in common: same task, seed and epoch", () => {
    // C ran t1 epoch 1 (shared), t9 (nobody else) and t1 under another seed (other parameters).
    const C = runOf("model-c", { t1: [50], t9: [100] });
    C.results.instances.push(instance("t2", "atomic", 1, 0, 99));
    const pairs = modelPairs([A, B, C]);
    expect(pairs.map((p) => [p.a, p.b, p.n, p.mean])).toEqual([
      ["model-a", "model-b", 6, 130 / 6],
      ["model-a", "model-c", 1, 50],
      ["model-b", "model-c", 1, 50],
    ]);
    expect(pairs[1]!.ci95).toEqual([50, 50]);
    const disjoint = runOf("model-d", { t1: [100] }, 7);
    expect(modelPairs([A, disjoint])).toEqual([]);
    expect(pairsTable([A, disjoint])).toBeNull();
  });

  test("leaves provider errors out of the pairing", () => {
    const withError = runOf("model-b", { t1: [100, 0], t2: [40, 40], c1: [80, 80] });
    withError.results.instances[0]!.failure = { class: "provider_error", reason: "HTTP 429" } as never;
    expect(modelPairs([A, withError])[0]!.n).toBe(5);
  });

  test("renders in Markdown and HTML after the pass^k table", () => {
    const tables = statsTables([A, B]);
    expect(tables.map((t) => t.id)).toEqual(["passk", "pairs"]);
    const md = tableMarkdown(tables[1]!);
    expect(md).toContain("| A | B | n | Δ | 95 % CI | W/L/T | p |");
    expect(md).toMatch(
      /\| model-a \| model-b \| 6 \| \+21\.7 \| \[[+-]?\d+\.\d, \+\d+\.\d\] \| 2\/1\/3 \| 1\.000 \|/,
    );
    expect(tableHtml(tables[1]!)).toContain('data-table="pairs"');
  });
});
