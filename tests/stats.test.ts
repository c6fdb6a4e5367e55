import { describe, expect, test } from "vitest";
import { commonK, meanPassHatK, taskScores } from "../src/results/reduce.ts";
import {
  pairedComparison,
  passAtK,
  passHatK,
  signTest,
  studentTQuantile,
  tInterval95,
} from "../src/results/stats.ts";
import type { InstanceResult } from "../src/results/types.ts";

describe("pass^k: every one of k attempts passes", () => {
  test("is C(c, k) / C(n, k), hand-computed", () => {
    // 3 of 5 pass: C(3,2)/C(5,2) = 3/10; C(3,3)/C(5,3) = 1/10.
    expect(passHatK(5, 3, 2)).toBeCloseTo(0.3, 12);
    expect(passHatK(5, 3, 3)).toBeCloseTo(0.1, 12);
    // k = 1 is the pass rate, like pass@1.
    expect(passHatK(4, 1, 1)).toBe(0.25);
    expect(passHatK(4, 1, 1)).toBe(passAtK(4, 1, 1));
    // More passes needed than there are: 0; all passed: 1.
    expect(passHatK(3, 2, 3)).toBe(0);
    expect(passHatK(3, 3, 3)).toBe(1);
  });

  test("is at most pass@k, and needs k attempts", () => {
    expect(passHatK(5, 3, 2)).toBeLessThan(passAtK(5, 3, 2)); // 0.3 < 1 − C(2,2)/C(5,2) = 0.9
    expect(passAtK(5, 3, 2)).toBeCloseTo(0.9, 12);
    expect(() => passHatK(2, 2, 3)).toThrow("pass^3 needs at least 3 attempts, got 2");
  });

  test("per model: the mean over tasks of each task's pass^k", () => {
    const i = (taskId: string, epoch: number, score: number) =>
      ({ taskId, split: "atomic", epoch, score, passed: score >= 60, failure: null }) as InstanceResult;
    // t1: 2 of 3 pass → pass^2 = C(2,2)/C(3,2) = 1/3; t2: 3 of 3 → 1. Mean 2/3.
    const tasks = taskScores([
      i("t1", 1, 100),
      i("t1", 2, 59),
      i("t1", 3, 60),
      ...[1, 2, 3].map((e) => i("t2", e, 90)),
    ]);
    expect(commonK(tasks)).toBe(3);
    expect(meanPassHatK(tasks, 2)).toBeCloseTo(2 / 3, 12);
    // pass^3: t1 0, t2 1.
    expect(meanPassHatK(tasks, 3)).toBe(0.5);
  });
});

describe("sign test: two-sided exact binomial", () => {
  test("matches hand-computed binomial tails", () => {
    // 8 wins, 2 losses: 2 · (C(10,0)+C(10,1)+C(10,2)) / 2^10 = 2 · 56/1024.
    expect(signTest(8, 2)).toBeCloseTo(112 / 1024, 12);
    expect(signTest(2, 8)).toBeCloseTo(112 / 1024, 12);
    // 10 of 10: 2 / 1024.
    expect(signTest(10, 0)).toBeCloseTo(2 / 1024, 12);
    // Even split and no untied pair: no evidence.
    expect(signTest(5, 5)).toBe(1);
    expect(signTest(0, 0)).toBe(1);
  });

  test("stays finite for thousands of instances (log-space sum)", () => {
    const p = signTest(1200, 1000);
    // Normal approximation: z = (1000.5 − 1100) / √(2200/4) ≈ −4.243 → p ≈ 2.2e-5.
    expect(p).toBeGreaterThan(1e-5);
    expect(p).toBeLessThan(4e-5);
  });
});

describe("Student t: the small-n interval", () => {
  test("quantiles match scipy.stats.t.ppf(0.975, df)", () => {
    // python3 -c "from scipy import stats; print([stats.t.ppf(0.975, d) for d in (1, 2, 6, 20, 106)])"
    const scipy: [number, number][] = [
      [1, 12.706204736174694],
      [2, 4.302652729749462],
      [6, 2.4469118511449786],
      [20, 2.085963447265864],
      [106, 1.9825972617655006],
    ];
    for (const [df, q] of scipy) expect(studentTQuantile(0.975, df)).toBeCloseTo(q, 9);
    // Symmetric, and the median is 0.
    expect(studentTQuantile(0.025, 6)).toBeCloseTo(-2.4469118511449786, 9);
    expect(studentTQuantile(0.5, 3)).toBeCloseTo(0, 6);
  });

  test("a mean's interval is mean ± t · s / √n, undefined (null, never ± 0) under 2 values", () => {
    // 1, 2, 3: s = 1, t(0.975, 2) = 4.302652729749462 → half-width 4.3027 / √3.
    const { mean, ci95 } = tInterval95([1, 2, 3]);
    const half = 4.302652729749462 / Math.sqrt(3);
    expect(mean).toBe(2);
    expect(ci95![0]).toBeCloseTo(2 - half, 9);
    expect(ci95![1]).toBeCloseTo(2 + half, 9);
    expect(tInterval95([42])).toEqual({ mean: 42, ci95: null, n: 1 });
    expect(tInterval95([]).ci95).toBeNull();
  });
});

describe("paired comparison: one difference per task", () => {
  test("counts wins, losses and ties, and takes the mean of the differences", () => {
    const c = pairedComparison([100, 80, 60, 0, 50], [90, 80, 70, 0, 0]);
    expect(c).toMatchObject({ n: 5, mean: 10, wins: 2, losses: 1, ties: 2 });
    // 2 wins, 1 loss: 2 · (1 + 3) / 8 = 1.
    expect(c.signP).toBe(1);
  });

  test("the bootstrap CI is the percentile interval of the resampled means, hand-computed on a small case", () => {
    // Differences 0, 0, 0, 10: a resample's mean is 2.5 · X, X ~ Binomial(4, 1/4).
    // P(X = 0) = 81/256 ≈ 0.316 > 0.025 → lower bound 0; P(X ≤ 2) = 243/256 ≈ 0.949 < 0.975 and
    // P(X = 4) = 1/256 < 0.025 → upper bound 7.5.
    const c = pairedComparison([0, 0, 0, 10], [0, 0, 0, 0]);
    expect(c.mean).toBe(2.5);
    expect(c.bootstrap95).toEqual([0, 7.5]);
    // Identical differences leave nothing to resample, and no spread for t.
    expect(pairedComparison([7, 9], [5, 7])).toMatchObject({ bootstrap95: [2, 2], t95: [2, 2] });
    // One task: no interval at all.
    expect(pairedComparison([7], [5])).toMatchObject({ mean: 2, bootstrap95: null, t95: null });
  });

  test("is reproducible: the same seed gives the same interval, another seed a close one", () => {
    const a = Array.from({ length: 40 }, (_, i) => (i * 37) % 101);
    const b = Array.from({ length: 40 }, (_, i) => (i * 53) % 97);
    const one = pairedComparison(a, b);
    expect(pairedComparison(a, b)).toEqual(one);
    const other = pairedComparison(a, b, { seed: "another" });
    expect(other.bootstrap95).not.toEqual(one.bootstrap95);
    // Both near the t interval of the differences (40 observations: the two agree closely).
    for (const c of [one, other]) {
      expect(c.bootstrap95![0]).toBeCloseTo(one.t95![0], -1);
      expect(c.bootstrap95![1]).toBeCloseTo(one.t95![1], -1);
    }
  });

  test("rejects lists that are not paired", () => {
    expect(() => pairedComparison([1, 2], [1])).toThrow("paired lists differ in length: 2 and 1");
    expect(() => pairedComparison([], [])).toThrow("a paired comparison needs at least one task");
  });
});
