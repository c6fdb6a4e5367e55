import { median } from "../results/stats.ts";
import type { LeaderboardRow } from "./leaderboard.ts";

/**
 * The paper's capability quadrants (App. F, Tables 8 and 10): a model is High or Low on each split by
 * the median of that split's average over the models shown.
 */

/**
 * The medians the quadrants split at, as the paper takes them (App. F: 46.5 and 73.0 for its 20
 * models): AtomicAvg over every model that ran atomic tasks (its atomic-only models included),
 * CompositeAvg over every model that ran composite tasks. 0 for a split no model ran.
 */
export function quadrantMedians(rows: readonly LeaderboardRow[]): { atomic: number; composite: number } {
  const med = (xs: number[]) => (xs.length === 0 ? 0 : median(xs));
  return {
    atomic: med(rows.flatMap((r) => (r.atomicAvg === null ? [] : [r.atomicAvg]))),
    composite: med(rows.flatMap((r) => (r.compositeAvg === null ? [] : [r.compositeAvg]))),
  };
}

/** The profiles of Table 8 in the paper's order, with its interpretations. */
export const QUADRANTS = [
  { profile: "High-High", interpretation: "strong precision and workflows" },
  { profile: "High-Low", interpretation: "strong precision, weaker workflows" },
  { profile: "Low-High", interpretation: "weaker precision, stronger workflows" },
  { profile: "Low-Low", interpretation: "weaker on both splits" },
  { profile: "Atomic-Only", interpretation: "composite split not executed" },
  { profile: "Composite-Only", interpretation: "atomic split not executed" },
] as const;

/**
 * Each model's quadrant (Table 10): `High` at or above the split's median ({@link quadrantMedians}),
 * `Low` below; `Atomic-Only` / `Composite-Only` when the other split did not run.
 */
export function quadrants(rows: readonly LeaderboardRow[]): Map<string, string> {
  const m = quadrantMedians(rows);
  return new Map(
    rows.map((r) => [
      r.model,
      r.compositeAvg === null || r.compositeTasks === 0
        ? "Atomic-Only"
        : r.atomicAvg === null
          ? "Composite-Only"
          : `${r.atomicAvg >= m.atomic ? "High" : "Low"}-${r.compositeAvg >= m.composite ? "High" : "Low"}`,
    ]),
  );
}

/** Table 8: models per quadrant, in the paper's order; a profile no model has is left out, but the four quadrants stay. */
export function quadrantCounts(
  rows: readonly LeaderboardRow[],
): { profile: string; count: number; interpretation: string }[] {
  const q = [...quadrants(rows).values()];
  return QUADRANTS.map((p) => ({ ...p, count: q.filter((x) => x === p.profile).length })).filter(
    (p, i) => i < 4 || p.count > 0,
  );
}
