import { describe, expect, test } from "vitest";
import { median } from "../src/median.ts";
import { quantile, median as statsMedian } from "../src/results/stats.ts";

describe("median (src/median.ts)", () => {
  test("the middle value, halfway between the two middles for an even count, NaN for none; input left unsorted", () => {
    const values = [5, 1, 3];
    expect(median(values)).toBe(3);
    expect(values).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([-2, -8])).toBe(-5);
    expect(median([])).toBeNaN();
  });

  test("is the one median: results' statistics re-export it, and it is their 0.5-quantile", () => {
    expect(statsMedian).toBe(median);
    for (const values of [
      [0.1, 0.2],
      [0.3, 0.1, 0.7, 0.2],
      [1e-9, 3, 1e9],
      [2.5, 2.5, 1.25, 9.75, 0.5],
    ])
      expect(median(values)).toBe(quantile(values, 0.5));
  });
});
