import { describe, expect, test } from "vitest";
import { scatterData } from "../src/reporting/figureData.ts";
import { type LeaderboardRow, leaderboardRow } from "../src/reporting/leaderboard.ts";
import { quadrantMedians, quadrants } from "../src/reporting/quadrants.ts";
import { paperTables } from "../src/reporting/tables.ts";
import type { MergedRun } from "../src/results/merge.ts";
import type { InstanceResult, RunManifest } from "../src/results/types.ts";

// The paper's Table 10 (App. F): model, AtomicAvg, CompAvg (null: composite split not run), Total,
// and its quadrant.
const TABLE_10: [string, number, number | null, number, string][] = [
  ["gemini-3-pro-preview", 71.9, 83.5, 8216.8, "High-High"],
  ["claude-sonnet-4.5", 65.9, 84.0, 7868.5, "High-High"],
  ["kimi-k2-thinking", 71.0, 77.9, 7904.9, "High-High"],
  ["gpt-5.1", 66.9, 77.7, 7642.3, "High-High"],
  ["deepseek-v3.2", 47.0, 90.9, 7003.3, "High-High"],
  ["gemini-2.5-flash", 36.5, 82.6, 5980.7, "Low-High"],
  ["gpt-oss-120b", 40.8, 81.8, 6213.3, "Low-High"],
  ["grok-4-fast", 46.0, 74.6, 6210.5, "Low-High"],
  ["gpt-5.1-codex-mini", 25.4, 73.0, 5286.3, "Low-High"],
  ["gpt-5", 56.7, 54.3, 5959.3, "High-Low"],
  ["claude-haiku-4.5", 61.5, 49.2, 6030.7, "High-Low"],
  ["qwen3-235b-thinking", 57.7, 37.6, 5270.6, "High-Low"],
  ["qwen3-max", 44.8, 60.0, 5472.9, "Low-Low"],
  ["glm-4.6", 44.7, 25.4, 3916.1, "Low-Low"],
  ["qwen3-30b-thinking", 45.9, 41.9, 4732.0, "Low-Low"],
  ["mimo-v2-flash", 44.2, 49.1, 4949.4, "Low-Low"],
  ["qwen3-coder-flash", 4.7, 0.8, 327.5, "Low-Low"],
  ["qwen3-coder", 45.6, null, 2825.0, "Atomic-Only"],
  ["qwen3-coder-30b", 48.6, null, 3015.0, "Atomic-Only"],
  ["devstral-2512", 46.9, null, 2905.0, "Atomic-Only"],
];

/** A leaderboard row carrying Table 10's numbers (what the quadrants and Tables 8 and 10 read). */
const rowOf = ([model, atomicAvg, compositeAvg, total]: (typeof TABLE_10)[number]): LeaderboardRow =>
  ({
    model,
    atomicAvg,
    compositeAvg,
    atomicTasks: 62,
    compositeTasks: compositeAvg === null ? 0 : 45,
    atomic: atomicAvg * 62,
    composite: (compositeAvg ?? 0) * 45,
    total,
    paperScoringTotal: null,
    avg107: total / 107,
    avg: total / (compositeAvg === null ? 62 : 107),
    avgCi95: null,
    rerunSd: null,
    safety: null,
    hardTasks: 0,
    compositeMetrics: null,
    modes: "default",
  }) as LeaderboardRow;

describe("Tables 8 and 10 exactly as the paper defines them", () => {
  const rows = TABLE_10.map(rowOf);

  test("fed the paper's own Table 10 numbers, the quadrants are the paper's (grok-4-fast Low-High)", () => {
    // AtomicAvg median over all 20 models (atomic-only ones included): (46.0 + 46.9)/2 = 46.45;
    // CompAvg median over the 17 that ran composites: 73.0 (gpt-5.1-codex-mini, High at the median).
    const m = quadrantMedians(rows);
    expect(m.atomic).toBeCloseTo(46.45, 10);
    expect(m.composite).toBe(73.0);
    expect(Object.fromEntries(quadrants(rows))).toEqual(
      Object.fromEntries(TABLE_10.map((r) => [r[0], r[4]])),
    );
    const table10 = paperTables(rows, 0).find((t) => t.id === "table10")!;
    expect(table10.rows.map((r) => r.at(-1))).toEqual(TABLE_10.map((r) => r[4]));
  });

  test("Table 8 counts the profiles as the paper does, with its medians 46.5 and 73.0", () => {
    const table8 = paperTables(rows, 0).find((t) => t.id === "table8")!;
    expect(table8.caption).toContain("(46.5 and 73.0 respectively;");
    expect(table8.header).toEqual(["Profile", "Count", "Interpretation"]);
    expect(table8.rows).toEqual([
      ["High-High", "5", "strong precision and workflows"],
      ["High-Low", "3", "strong precision, weaker workflows"],
      ["Low-High", "4", "weaker precision, stronger workflows"],
      ["Low-Low", "5", "weaker on both splits"],
      ["Atomic-Only", "3", "composite split not executed"],
    ]);
  });
});

// The paper's Table 1: model, Atom, Comp (integers as printed), Avg; with Table 10's Total (one decimal).
const TABLE_1: [string, number, number, number, number][] = [
  ["Gemini-3-Pro", 4460, 3757, 76.8, 8216.8],
  ["Kimi-K2", 4400, 3505, 73.9, 7904.9],
  ["Claude-Sonnet-4.5", 4088, 3781, 73.5, 7868.5],
  ["GPT-5.1", 4145, 3497, 71.4, 7642.3],
  ["DeepSeek-V3.2", 2915, 4088, 65.5, 7003.3],
  ["GPT-OSS-120B", 2531, 3682, 58.1, 6213.3],
  ["Grok-4-Fast", 2853, 3358, 58.0, 6210.5],
  ["Claude-Haiku-4.5", 3816, 2215, 56.4, 6030.7],
  ["Gemini-2.5-Flash", 2265, 3716, 55.9, 5980.7],
  ["GPT-5", 3516, 2443, 55.7, 5959.3],
  ["Qwen3-Max", 2775, 2698, 51.2, 5472.9],
  ["GPT-5.1-Codex-Mini", 1573, 3286, 49.4, 5286.3],
  ["Qwen3-235B", 3580, 1691, 49.3, 5270.6],
  ["Mimo-V2-Flash", 2740, 2209, 46.3, 4949.4],
  ["Qwen3-30B", 2845, 1887, 44.2, 4732.0],
  ["GLM-4.6", 2771, 1145, 36.6, 3916.1],
  ["Devstral-2512", 2905, 0, 27.2, 2905.0],
  ["Qwen3-Coder-30B", 3015, 0, 28.2, 3015.0],
  ["Qwen3-Coder", 2825, 0, 26.4, 2825.0],
  ["Qwen3-Coder-Flash", 290, 38, 3.1, 327.5],
];
const ATOMIC_ONLY = new Set(["Devstral-2512", "Qwen3-Coder-30B", "Qwen3-Coder"]);

/** `n` task scores (each ≤ 100) summing to `sum`: 100s, the remainder, then 0s. */
const scoresSumming = (sum: number, n: number) =>
  Array.from({ length: n }, (_, i) => Math.max(0, Math.min(100, sum - i * 100)));

/** A merged run with one instance per task of each split it ran, its scores summing to atom and comp. */
function runOf(model: string, atom: number, comp: number | null): MergedRun {
  const make = (split: "atomic" | "composite", xs: number[]) =>
    xs.map((score, t) => ({
      taskId: `${split}-${t}`,
      split,
      seed: 1,
      epoch: 1,
      score,
      passed: score >= 60,
      failure: null,
    }));
  const instances = [
    ...make("atomic", scoresSumming(atom, 62)),
    ...(comp === null ? [] : make("composite", scoresSumming(comp, 45))),
  ];
  return {
    model,
    manifest: {} as RunManifest,
    sources: [],
    results: {
      schemaVersion: 1,
      manifest: {} as RunManifest,
      summary: {} as never,
      instances: instances as InstanceResult[],
    },
  };
}

describe("Table 1's Avg divides by 107, as the paper does", () => {
  test("reproduces every Avg of the paper's Table 1 from its Atom and Comp", () => {
    // Table 1 prints Atom and Comp as integers, rounded from totals with one decimal (Table 10): Comp
    // is taken as Total − Atom so the sum is the paper's. GPT-5.1-Codex-Mini's printed Atom + Comp
    // (4859) is not its printed Total (5286; Table 10: 5286.3), whose Avg the paper prints: its Total is used.
    const got = TABLE_1.map(([model, atom, , , total]) =>
      leaderboardRow(
        runOf(model, atom, ATOMIC_ONLY.has(model) ? null : Math.round((total - atom) * 10) / 10),
      ),
    );
    expect(got.map((r) => [r.model, r.avg107])).toEqual(TABLE_1.map(([model, , , avg]) => [model, avg]));
    // The other 19 rows' Atom + Comp is their Total to within Table 1's rounding.
    for (const [model, atom, comp, , total] of TABLE_1)
      if (model !== "GPT-5.1-Codex-Mini")
        expect(Math.abs(atom + comp - total), model).toBeLessThanOrEqual(0.5);
  });

  test("an atomic-only model's Avg counts the composites it did not run; Avg (run) does not", () => {
    // Devstral: 2905 over 62 atomic tasks, no composite: Avg 27.2 (paper), Avg over tasks run 46.9.
    const row = leaderboardRow(runOf("devstral-2512", 2905, null));
    expect(row.avg107).toBe(27.2);
    expect(row.avg).toBe(46.9);
    const table1 = paperTables([row], 0).find((t) => t.id === "table1")!;
    expect(table1.header.slice(0, 8)).toEqual([
      "#",
      "Model",
      "Atom",
      "Total",
      "Avg",
      "Avg (run)",
      "95 % CI (tasks)",
      "Coverage",
    ]);
    expect(table1.rows[0]!.slice(0, 6)).toEqual(["1", "devstral-2512", "2905", "2905", "27.2", "46.9"]);
    // Table 10: the composite split it did not run is "—", not 0.0 (and no Figure 3 point).
    const table10 = paperTables([row], 0).find((t) => t.id === "table10")!;
    expect(table10.rows[0]).toEqual(["devstral-2512", "62/62", "0/45", "46.9", "—", "2905", "Atomic-Only"]);
    expect(scatterData([row]).points).toEqual([]);
  });
});
