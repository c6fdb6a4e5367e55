/**
 * The report's figures as Vega-Lite specs (docs/RUNNING.md "Reports"), built from data
 * already aggregated (src/reporting/figureData.ts): pass-rate bars (Figures 4, 5 and 7), Atomic vs
 * Composite with its labels placed apart (Figure 3), the task bank's sizes (Figure 2) and the step
 * overhead (Figure 6). Pure: reads no file, loads no task, renders nothing (src/reporting/figures.ts
 * renders them). The types below are what each figure draws.
 */

/** A Vega-Lite spec (top level or layer). */
export type Spec = Record<string, unknown>;

/** Every figure is drawn this wide (px), so the page shows them at one size. */
export const FIGURE_WIDTH = 520;

/** One bar of a pass-rate figure: a model's pass rate in one group, with its label. */
export type Rate = { model: string; group: string; passRate: number; n: number; label: string };

/** Figure 3's data: each model's averages (0–100, one decimal) and the medians its quadrants split at. */
export type ScatterData = {
  points: { model: string; atomic: number; composite: number }[];
  medians: { atomic: number; composite: number };
};

/** Figure 2's data: tasks per split, and composite tasks per K_opt (every K_opt in range, 0 if none). */
export type Figure2Data = {
  splits: { split: "atomic" | "composite"; tasks: number }[];
  hist: { k: string; n: number }[];
};

/** Figure 6's data: how many of a model's composite instances took Δ rounds above K_opt. */
export type OverheadCount = { model: string; delta: number; n: number };

/**
 * Horizontal pass-rate bars, one row per group (hardest first), one bar per model, the value written
 * at each bar's end so a 0 % bar still shows ("0%") — the paper's Figures 4, 5 and 7.
 */
export function passRateBars(title: string, values: Rate[], models: number): Spec {
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
export function scatterSpec(data: ScatterData): Spec {
  const W = FIGURE_WIDTH - 60;
  const H = 400;
  const PAD = 14; // px the scale adds on each side so the (100, 100) corner point sits inside the frame
  const toPx = (v: number) => PAD + (v / 100) * (W - 2 * PAD);
  const toPy = (v: number) => H - PAD - (v / 100) * (H - 2 * PAD);
  const fromPx = (px: number) => ((px - PAD) / (W - 2 * PAD)) * 100;
  const fromPy = (py: number) => ((H - PAD - py) / (H - 2 * PAD)) * 100;
  const { points } = data;
  const { atomic: ma, composite: mc } = data.medians;
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
    title: { text: "Atomic vs Composite", subtitle: "average score per task, 0–100; dashed: the medians" },
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

/** Figure 2 (a): tasks per split; (b): composite tasks by K_opt. */
export function figure2Specs({ splits, hist }: Figure2Data): Record<string, Spec> {
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
    "fig2a-split-sizes": bars("Tasks per split", splits, "split", "split", "tasks"),
    "fig2b-kopt-histogram": bars(
      "Composite tasks by optimal steps K_opt",
      hist,
      "k",
      "K_opt (optimal execution rounds)",
      "composite tasks",
    ),
  };
}

/** Figure 6: Δ = K_act − K_opt per composite instance, counted (integers) per model. */
export function overheadSpec(values: readonly OverheadCount[]): Spec {
  const ds = values.map((v) => v.delta);
  const all = ds.length
    ? Array.from({ length: Math.max(...ds) - Math.min(...ds) + 1 }, (_, i) => Math.min(...ds) + i)
    : [0];
  return {
    title: "Step overhead Δ = K_act − K_opt (composite instances)",
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
