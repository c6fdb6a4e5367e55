import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import type { InstanceResult } from "../results/types.ts";
import { loadTasks } from "../tasks/load.ts";
import type { LoadedTaskSpec } from "../tasks/types.ts";
import { type LeaderboardRow, SPLIT_TASKS } from "./leaderboard.ts";
import type { MergedRun } from "./merge.ts";
import { quadrantMedians } from "./quadrants.ts";

const require = createRequire(import.meta.url);
// vega/vega-lite 5 are CommonJS-friendly; loaded lazily so runs that never render pay nothing.
const vl = () => require("vega-lite") as typeof import("vega-lite");
const vega = () => require("vega") as typeof import("vega");

type Spec = Record<string, unknown>;

/** Every figure is drawn this wide (px), so the page shows them at one size. */
export const FIGURE_WIDTH = 520;
const FONT = "system-ui, sans-serif";
const CONFIG = {
  font: FONT,
  title: { fontSize: 14, anchor: "start", offset: 10 },
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 360 },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: "top", direction: "horizontal", labelLimit: 220 },
  view: { stroke: null },
};

/** Renders a Vega-Lite spec to a standalone SVG string (no browser, no network). */
export async function renderSvg(spec: Spec): Promise<string> {
  const compiled = vl().compile({
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    config: CONFIG,
    background: "white",
    ...spec,
  } as never).spec;
  const view = new (vega().View)(vega().parse(compiled), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const STEP_WORDS: [RegExp, string][] = [
  [/^query_/, "query"],
  [/approve/, "approve"],
  [/^swap_/, "swap"],
  [/^wbnb_deposit$/, "wrap"],
  [/^wbnb_withdraw$/, "unwrap"],
  [/^add_liquidity/, "add liquidity"],
  [/^remove_liquidity/, "remove liquidity"],
  [/^emergency_withdraw$/, "emergency withdraw"],
  [/^stake_/, "stake"],
  [/^unstake_/, "unstake"],
  [/^harvest_/, "harvest"],
  [/^erc721_/, "NFT transfer"],
  [/transferfrom/, "transferFrom"],
  [/transfer/, "transfer"],
];

/**
 * A composite workflow's pattern in the paper's words (§3.3 "approve→swap, approve→add liquidity,
 * add liquidity→stake"; §5.4 "batch approval"): its atomic steps named by action, repeats of one
 * action folded ("batch transfer" when the whole workflow repeats it), the read-only steps of a
 * workflow that also writes shown as "+ verify" (the paper's query-and-verify motif).
 */
export function workflowPattern(workflow: readonly string[]): string {
  const words = workflow.map((s) => STEP_WORDS.find(([re]) => re.test(s))?.[1] ?? s.replace(/_/g, " "));
  const writes = words.filter((w) => w !== "query");
  const folded = (ws: string[]) => ws.filter((w, i) => i === 0 || w !== ws[i - 1]);
  if (writes.length === 0) return folded(words).length === 1 && words.length > 1 ? "batch query" : "query";
  const core = folded(writes);
  const name = core.length === 1 && writes.length > 1 ? `batch ${core[0]}` : core.join(" → ");
  return writes.length < words.length ? `${name} + verify` : name;
}

/**
 * The paper's workflow pattern of each paper composite task (PAPER.txt §3.2: "a composite_structure field that
 * names a workflow pattern"; Figures 4–5 group by it), as its implementation's question bank names
 * it: `composite_structure.pattern`, else the task's motif tag (`approve-execute`,
 * `query-write-verify`). Seven tasks are missing from the copy of that bank we could read
 * (marked "ours"); they are named in the same style from their steps.
 */
export const PAPER_PATTERNS: Readonly<Record<string, string>> = {
  composite_add_liquidity_stake_lp: "liquidity-approve-stake",
  composite_approve_add_liquidity: "approve-execute",
  composite_approve_remove_liquidity: "approve-execute",
  composite_approve_stake_tokens: "approve-execute",
  composite_approve_swap_query_result: "approve-swap-query",
  composite_approve_swap_to_bnb: "approve-execute",
  composite_approve_swap_tokens: "approve-execute",
  composite_approve_transferfrom: "approve-execute",
  composite_batch_approve_2_tokens: "batch-approve-execute",
  composite_batch_mixed_transfers: "batch-mixed-transfer",
  composite_batch_query_2_balances: "batch-query",
  composite_batch_query_portfolio: "batch-query", // ours
  composite_batch_transfer_2_bnb: "batch-transfer",
  composite_batch_transfer_2_tokens: "batch-transfer",
  composite_batch_transfer_3_bnb: "batch-transfer",
  composite_batch_transfer_3_tokens: "batch-transfer",
  composite_complete_swap_stake_workflow: "query-swap-stake-verify",
  composite_emergency_exit_workflow: "emergency-remove-unwrap-verify", // ours
  composite_full_liquidity_cycle: "full-liquidity-cycle",
  composite_harvest_reinvest_workflow: "harvest-swap-restake",
  composite_liquidity_provision_with_stake: "approve-liquidity-stake-verify",
  composite_multi_approve_multi_swap: "multi-approve-multi-swap", // ours
  composite_multi_token_swap: "multi-swap",
  composite_nft_bundle_sale: "nft-bundle-sale",
  composite_nft_transfer_with_payment: "nft-sale",
  composite_optimized_swap_with_query: "query-approve-swap-verify", // ours
  composite_portfolio_rebalance: "query-multi-swap-verify", // ours
  composite_query_allowance_approve_verify: "query-write-verify",
  composite_query_balance_wrap_verify: "query-write-verify",
  composite_query_bnb_transfer_verify: "query-write-verify", // ours
  composite_query_erc20_transfer_verify: "query-write-verify",
  composite_query_nft_transfer_verify: "query-write-verify",
  composite_query_reserves_before_after_swap: "query-write-verify",
  composite_query_rewards_harvest_verify: "query-write-verify",
  composite_query_staked_stake_verify: "query-write-verify",
  composite_query_swap_verify_output: "query-swap-verify",
  composite_remove_liquidity_unwrap: "remove-unwrap-verify",
  composite_split_and_transfer: "split-transfer",
  composite_swap_approve_stake: "swap-approve-stake",
  composite_swap_unwrap_bnb: "swap-unwrap",
  composite_triple_pool_liquidity: "multi-swap-liquidity", // ours
  composite_unstake_harvest_query: "unstake-harvest-query",
  composite_wrap_add_liquidity: "wrap-approve-liquidity",
  composite_wrap_swap_wbnb: "wrap-approve-swap",
  composite_wrap_unwrap_cycle: "wrap-unwrap",
};

/**
 * The pattern a composite result is grouped by in Figures 4–5: the paper's name for a paper task,
 * else one derived from the workflow (hard tasks), else the subcategory.
 */
export function compositePattern(
  taskId: string,
  workflow: readonly string[] | undefined,
  subcategory: string,
): string {
  return (
    PAPER_PATTERNS[taskId] ?? (workflow?.length ? workflowPattern(workflow) : subcategory.replace(/_/g, " "))
  );
}

/** The task bank's composite specs by id (workflow, K_opt), for patterns and Figure 2. */
function taskBank(): Map<string, LoadedTaskSpec> {
  try {
    return new Map(loadTasks().map((t) => [t.spec.id, t.spec]));
  } catch {
    return new Map();
  }
}

const pct = (xs: readonly { passed: boolean }[]) =>
  xs.length === 0 ? 0 : Math.round((xs.filter((x) => x.passed).length / xs.length) * 1000) / 10;

type Rate = { model: string; group: string; passRate: number; n: number; label: string };

function passRateBy(
  runs: readonly MergedRun[],
  split: "atomic" | "composite",
  groupOf: (i: InstanceResult) => string,
): Rate[] {
  const rows: Rate[] = [];
  for (const run of runs) {
    const groups = new Map<string, InstanceResult[]>();
    // The paper's figures: hard-split instances (tasks/hard/README.md) are reported apart, not drawn here.
    for (const i of run.results.instances)
      if (i.split === split && i.set !== "hard" && i.failure?.class !== "provider_error")
        groups.set(groupOf(i), [...(groups.get(groupOf(i)) ?? []), i]);
    for (const [group, xs] of groups) {
      const passRate = pct(xs);
      rows.push({ model: run.model, group, passRate, n: xs.length, label: `${passRate}%` });
    }
  }
  return rows;
}

/**
 * Horizontal pass-rate bars, one row per group (hardest first), one bar per model, the value written
 * at each bar's end so a 0 % bar still shows ("0%") — the paper's Figures 4, 5 and 7.
 */
function passRateBars(title: string, values: Rate[], models: number): Spec {
  const byGroup = new Map<string, number[]>();
  for (const v of values) byGroup.set(v.group, [...(byGroup.get(v.group) ?? []), v.passRate]);
  const order = [...byGroup]
    .map(([g, xs]) => [g, xs.reduce((a, b) => a + b, 0) / xs.length] as const)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .map(([g]) => g);
  // No y-axis title: the figure title names the groups, and a long label would run into it.
  const y = { field: "group", type: "nominal", title: null, sort: order, axis: { labelLimit: 600 } };
  const perModel = models > 1;
  return {
    title,
    width: FIGURE_WIDTH - 160,
    height: { step: perModel ? 12 : 18, ...(perModel ? { for: "offset" } : {}) },
    data: { values },
    encoding: {
      y,
      ...(perModel ? { yOffset: { field: "model" } } : {}),
      x: {
        field: "passRate",
        type: "quantitative",
        title: "pass rate (%, score ≥ 60)",
        scale: { domain: [0, 100] },
        axis: { values: [0, 20, 40, 60, 80, 100] },
      },
      color: perModel ? { field: "model", type: "nominal", title: "model" } : { value: "#4c78a8" },
    },
    layer: [
      { mark: { type: "bar", tooltip: true } },
      {
        mark: { type: "text", align: "left", dx: 3, fontSize: perModel ? 9 : 10, color: "#333" },
        encoding: { text: { field: "label" }, color: { value: "#333" } },
      },
    ],
  };
}

/** Most models drawn side by side in a pass-rate figure; beyond that the models are pooled. */
const MAX_BARS_PER_GROUP = 4;

/** Pass rates pooled over every model's instances (one bar per group), for more models than bars fit. */
function pooled(rates: readonly Rate[]): Rate[] {
  const by = new Map<string, { passed: number; n: number }>();
  for (const r of rates) {
    const g = by.get(r.group) ?? { passed: 0, n: 0 };
    g.passed += (r.passRate / 100) * r.n;
    g.n += r.n;
    by.set(r.group, g);
  }
  return [...by].map(([group, g]) => {
    const passRate = Math.round((g.passed / g.n) * 1000) / 10;
    return { model: "all models", group, passRate, n: g.n, label: `${passRate}% (n=${g.n})` };
  });
}

type Placed = { x: number; y: number; w: number; h: number };
const overlaps = (a: Placed, b: Placed) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Places each scatter label in pixel space so no two labels, no label and point, and no label and
 * the plot edge collide: first beside the point, then stepped up or down with a leader line. Widths
 * are estimated generously (7 px per character at 11 px), so the browser's real text fits inside.
 */
export function placeLabels(
  points: readonly { model: string; px: number; py: number }[],
  width: number,
  height: number,
  lines: { px?: number; py?: number }[] = [],
): { model: string; lx: number; ly: number; align: "left" | "right"; leader: boolean }[] {
  const H = 14;
  const placed: Placed[] = points.map((p) => ({ x: p.px - 6, y: p.py - 6, w: 12, h: 12 }));
  // Median lines: a label may not sit on them (a leader line may cross them).
  const obstacles: Placed[] = lines.map((l) =>
    l.px !== undefined ? { x: l.px - 1, y: 0, w: 2, h: height } : { x: 0, y: l.py! - 1, w: width, h: 2 },
  );
  const out: ReturnType<typeof placeLabels> = [];
  const order = [...points].sort((a, b) => a.py - b.py || a.px - b.px);
  for (const p of order) {
    const w = 7 * p.model.length + 4;
    let chosen: (Placed & { align: "left" | "right"; leader: boolean }) | undefined;
    for (let k = 0; k < 60 && !chosen; k++) {
      const dy = k === 0 ? 0 : (k % 2 === 1 ? 1 : -1) * Math.ceil(k / 2) * (H + 1);
      for (const align of ["left", "right"] as const) {
        const x = align === "left" ? p.px + 9 : p.px - 9 - w;
        const box = { x, y: p.py + dy - H / 2, w, h: H };
        if (box.x < 0 || box.x + box.w > width || box.y < -8 || box.y + box.h > height + 8) continue;
        if (placed.some((q) => overlaps(box, q)) || obstacles.some((q) => overlaps(box, q))) continue;
        chosen = { ...box, align, leader: k > 0 };
        break;
      }
    }
    chosen ??= { x: p.px + 9, y: p.py - H / 2, w, h: H, align: "left", leader: false };
    placed.push(chosen);
    out.push({
      model: p.model,
      lx: chosen.align === "left" ? chosen.x : chosen.x + chosen.w,
      ly: chosen.y + H / 2,
      align: chosen.align,
      leader: chosen.leader,
    });
  }
  return out;
}

/** Figure 3: AtomicAvg vs CompositeAvg, median lines (the quadrant borders), labels placed apart. */
function scatterSpec(rows: readonly LeaderboardRow[]): Spec {
  const W = FIGURE_WIDTH - 60;
  const H = 400;
  const PAD = 14; // px the scale adds on each side so the (100, 100) corner point sits inside the frame
  const toPx = (v: number) => PAD + (v / 100) * (W - 2 * PAD);
  const toPy = (v: number) => H - PAD - (v / 100) * (H - 2 * PAD);
  const fromPx = (px: number) => ((px - PAD) / (W - 2 * PAD)) * 100;
  const fromPy = (py: number) => ((H - PAD - py) / (H - 2 * PAD)) * 100;
  const points = rows.map((r) => ({
    model: r.model,
    atomic: Math.round((r.atomicAvg ?? 0) * 10) / 10,
    composite: Math.round((r.compositeAvg ?? 0) * 10) / 10,
  }));
  // The medians Table 10's quadrants split at, so the dashed lines and the table agree.
  const { atomic: ma, composite: mc } = quadrantMedians(rows);
  const labels = placeLabels(
    points.map((p) => ({ model: p.model, px: toPx(p.atomic), py: toPy(p.composite) })),
    W,
    H,
    [{ px: toPx(ma) }, { py: toPy(mc) }],
  );
  const labelValues = labels.map((l) => {
    const p = points.find((q) => q.model === l.model)!;
    return { ...l, x: fromPx(l.lx), y: fromPy(l.ly), px: p.atomic, py: p.composite };
  });
  const scale = { domain: [0, 100], nice: false, zero: false, padding: PAD };
  const x = (field: string, title?: string) => ({
    field,
    type: "quantitative",
    scale,
    ...(title ? { title, axis: { values: [0, 20, 40, 60, 80, 100] } } : {}),
  });
  const y = (field: string, title?: string) => ({
    field,
    type: "quantitative",
    scale,
    ...(title ? { title, axis: { values: [0, 20, 40, 60, 80, 100] } } : {}),
  });
  const textLayer = (align: "left" | "right") => ({
    data: { values: labelValues.filter((l) => l.align === align) },
    mark: { type: "text", align, baseline: "middle", fontSize: 11 },
    encoding: { x: x("x"), y: y("y"), text: { field: "model" } },
  });
  return {
    title: "Figure 3: Atomic vs Composite (average score per task, 0–100); dashed: medians",
    width: W,
    height: H,
    layer: [
      {
        data: { values: [{ v: ma, label: `median ${ma.toFixed(1)}` }] },
        mark: { type: "rule", strokeDash: [5, 4], color: "#888" },
        encoding: { x: x("v") },
      },
      {
        data: { values: [{ v: mc, label: `median ${mc.toFixed(1)}` }] },
        mark: { type: "rule", strokeDash: [5, 4], color: "#888" },
        encoding: { y: y("v") },
      },
      {
        data: { values: labelValues.filter((l) => l.leader) },
        mark: { type: "rule", color: "#aaa", strokeWidth: 1 },
        encoding: { x: x("px"), y: y("py"), x2: { field: "x" }, y2: { field: "y" } },
      },
      {
        data: { values: points },
        mark: { type: "point", filled: true, size: 80, tooltip: true },
        encoding: {
          x: x("atomic", "AtomicAvg"),
          y: y("composite", "CompositeAvg"),
          color: { field: "model", type: "nominal", legend: null },
        },
      },
      textLayer("left"),
      textLayer("right"),
    ],
  };
}

/** Figure 2 (a): tasks per split; (b): composite tasks by K_opt. From the task bank. */
function figure2(bank: Map<string, LoadedTaskSpec>): Record<string, Spec> {
  const specs = [...bank.values()].filter((t) => (t.set ?? "paper") === "paper");
  const splits = (["atomic", "composite"] as const).map((s) => ({
    split: s,
    tasks: specs.filter((t) => t.split === s).length || SPLIT_TASKS[s],
  }));
  const kOpt = new Map<number, number>();
  for (const t of specs)
    if (t.split === "composite" && t.optimal_steps)
      kOpt.set(t.optimal_steps, (kOpt.get(t.optimal_steps) ?? 0) + 1);
  // Every K_opt from the smallest to the largest, an empty one drawn as 0 (a gap is a finding).
  const ks = [...kOpt.keys()];
  const hist = ks.length
    ? Array.from({ length: Math.max(...ks) - Math.min(...ks) + 1 }, (_, i) => Math.min(...ks) + i).map(
        (k) => ({
          k: String(k),
          n: kOpt.get(k) ?? 0,
        }),
      )
    : [];
  const bars = (title: string, values: unknown[], xf: string, xt: string, yt: string) => ({
    title,
    width: FIGURE_WIDTH - 80,
    height: 220,
    data: { values },
    encoding: {
      x: { field: xf, type: "ordinal", title: xt, axis: { labelAngle: 0 }, sort: null },
      y: {
        field: Object.keys(values[0] ?? { n: 0 }).find((f) => f !== xf),
        type: "quantitative",
        title: yt,
        axis: { tickMinStep: 1, format: "d" },
      },
    },
    layer: [
      { mark: { type: "bar", color: "#4c78a8", tooltip: true } },
      {
        mark: { type: "text", dy: -7, fontSize: 11 },
        encoding: { text: { field: Object.keys(values[0] ?? { n: 0 }).find((f) => f !== xf) } },
      },
    ],
  });
  return {
    "fig2a-split-sizes": bars("Figure 2a: tasks per split", splits, "split", "split", "tasks"),
    "fig2b-kopt-histogram": bars(
      "Figure 2b: composite tasks by optimal steps K_opt",
      hist,
      "k",
      "K_opt (optimal execution rounds)",
      "composite tasks",
    ),
  };
}

/** Figure 6: Δ = K_act − K_opt per composite instance, counted (integers) per model. */
function overheadSpec(runs: readonly MergedRun[]): Spec {
  const counts = new Map<string, number>();
  for (const run of runs)
    for (const i of run.results.instances)
      if (i.composite && i.set !== "hard" && i.failure?.class !== "provider_error") {
        const key = `${run.model}\u0000${i.composite.kAct - i.composite.kOpt}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
  const values = [...counts].map(([key, n]) => {
    const [model, d] = key.split("\u0000");
    return { model, delta: Number(d), n };
  });
  const ds = values.map((v) => v.delta);
  const all = ds.length
    ? Array.from({ length: Math.max(...ds) - Math.min(...ds) + 1 }, (_, i) => Math.min(...ds) + i)
    : [0];
  return {
    title: "Figure 6: step overhead Δ = K_act − K_opt (composite instances)",
    width: FIGURE_WIDTH - 80,
    height: 240,
    data: { values },
    encoding: {
      x: {
        field: "delta",
        type: "ordinal",
        title: "Δ (rounds above the optimum; < 0: fewer rounds than K_opt)",
        scale: { domain: all },
        axis: { labelAngle: 0 },
      },
      xOffset: { field: "model" },
      y: { field: "n", type: "quantitative", title: "instances", axis: { tickMinStep: 1, format: "d" } },
      color: { field: "model", type: "nominal", title: "model" },
    },
    layer: [
      { mark: { type: "bar", tooltip: true } },
      {
        mark: { type: "text", dy: -6, fontSize: 10 },
        encoding: { text: { field: "n" }, color: { value: "#333" } },
      },
    ],
  };
}

/**
 * The report's figures as SVG strings keyed by file name (without `.svg`): the paper's Figure 2a/2b
 * (task bank), 3 (Atomic vs Composite), 4 (every workflow pattern), 5 (the ten most frequent
 * patterns), 6 (step overhead) and 7 (atomic subcategories); 4–7 per model.
 */
export async function renderFigures(
  runs: readonly MergedRun[],
  rows: readonly LeaderboardRow[],
): Promise<Record<string, string>> {
  const bank = taskBank();
  const patternOf = (i: InstanceResult) =>
    compositePattern(i.taskId, bank.get(i.taskId)?.workflow, i.subcategory);
  const patterns = passRateBy(runs, "composite", patternOf);
  const frequency = new Map<string, number>();
  for (const p of patterns) frequency.set(p.group, (frequency.get(p.group) ?? 0) + p.n);
  const top = new Set(
    [...frequency]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([g]) => g),
  );
  const models = runs.length;
  // Figures 4, 5 and 7 compare models (one bar per model and group) while a reader can tell the bars
  // apart; beyond that they are pooled, and the title says so.
  const barModels = models <= MAX_BARS_PER_GROUP ? models : 1;
  const perModel = (rates: Rate[]) => (barModels === 1 && models > 1 ? pooled(rates) : rates);
  const pooledNote = barModels === 1 && models > 1 ? `, ${models} models pooled` : "";
  const figures: Record<string, Spec> = {
    ...figure2(bank),
    "fig3-atomic-vs-composite": scatterSpec(rows),
    "fig4-workflow-patterns": passRateBars(
      `Figure 4: pass rate by composite workflow pattern (hardest first${pooledNote})`,
      perModel(patterns),
      barModels,
    ),
    "fig5-top-patterns": passRateBars(
      `Figure 5: pass rate for the ten most frequent workflow patterns${pooledNote}`,
      perModel(patterns.filter((p) => top.has(p.group))),
      barModels,
    ),
    "fig6-step-overhead": overheadSpec(runs),
    "fig7-atomic-subcategories": passRateBars(
      `Figure 7: pass rate by atomic subcategory (hardest first${pooledNote})`,
      perModel(passRateBy(runs, "atomic", (i) => i.subcategory.replace(/_/g, " "))),
      barModels,
    ),
  };
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(figures)) out[name] = await renderSvg(spec);
  return out;
}

/** Print resolution of the PNG figures: 300 dpi, what journals and arXiv ask of raster figures. */
export const PNG_DPI = 300;

/**
 * A figure's SVG as a PNG at {@link PNG_DPI} (the SVG's CSS pixels are 1/96 inch), rendered by resvg
 * with the machine's fonts (any sans-serif; Debian: fonts-dejavu-core).
 */
export function svgToPng(svg: string, dpi = PNG_DPI): Buffer {
  return new Resvg(svg, {
    fitTo: { mode: "zoom", value: dpi / 96 },
    background: "white",
    // Vega writes font-family sans-serif; resvg's own default for it is Arial, which Linux rarely has.
    font: { loadSystemFonts: true, sansSerifFamily: "DejaVu Sans", defaultFontFamily: "DejaVu Sans" },
  })
    .render()
    .asPng();
}
