import { createRequire } from "node:module";
import type { LeaderboardRow } from "./leaderboard.ts";
import type { MergedRun } from "./merge.ts";

const require = createRequire(import.meta.url);
// vega/vega-lite 5 are CommonJS-friendly; loaded lazily so runs that never render pay nothing.
const vl = () => require("vega-lite") as typeof import("vega-lite");
const vega = () => require("vega") as typeof import("vega");

type Spec = Record<string, unknown>;

/** Renders a Vega-Lite spec to a standalone SVG string (no browser, no network). */
export async function renderSvg(spec: Spec): Promise<string> {
  const compiled = vl().compile({
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    ...spec,
  } as never).spec;
  const view = new (vega().View)(vega().parse(compiled), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const passRate = (xs: { passed: boolean }[]) =>
  xs.length === 0 ? 0 : (xs.filter((x) => x.passed).length / xs.length) * 100;

function passRateBy(runs: readonly MergedRun[], split: "atomic" | "composite") {
  const rows: { model: string; group: string; passRate: number; n: number }[] = [];
  for (const run of runs) {
    const groups = new Map<string, { passed: boolean }[]>();
    for (const i of run.results.instances.filter(
      (x) => x.split === split && x.failure?.class !== "provider_error",
    ))
      groups.set(i.subcategory, [...(groups.get(i.subcategory) ?? []), i]);
    for (const [group, xs] of groups)
      rows.push({ model: run.model, group, passRate: Math.round(passRate(xs) * 10) / 10, n: xs.length });
  }
  return rows;
}

const barBy = (title: string, values: unknown[], x: string) => ({
  title,
  width: { step: 14 },
  height: 220,
  data: { values },
  mark: { type: "bar", tooltip: true },
  encoding: {
    x: { field: "group", type: "nominal", title: x, axis: { labelAngle: -40 } },
    xOffset: { field: "model" },
    y: { field: "passRate", type: "quantitative", title: "pass rate (%)", scale: { domain: [0, 100] } },
    color: { field: "model", type: "nominal" },
  },
});

/** The report's figures (paper Fig. 3, 4/5, 6), each as an SVG string keyed by a stable name. */
export async function renderFigures(
  runs: readonly MergedRun[],
  rows: readonly LeaderboardRow[],
): Promise<Record<string, string>> {
  const scatter = {
    title: "Atomic vs Composite (average score per task, 0–100)",
    width: 360,
    height: 300,
    data: {
      values: rows.map((r) => ({ model: r.model, atomic: r.atomicAvg ?? 0, composite: r.compositeAvg ?? 0 })),
    },
    layer: [
      {
        mark: { type: "point", filled: true, size: 90 },
        encoding: { color: { field: "model", type: "nominal" } },
      },
      { mark: { type: "text", dx: 8, align: "left" }, encoding: { text: { field: "model" } } },
    ],
    encoding: {
      x: { field: "atomic", type: "quantitative", title: "AtomicAvg", scale: { domain: [0, 100] } },
      y: { field: "composite", type: "quantitative", title: "CompositeAvg", scale: { domain: [0, 100] } },
    },
  };
  const deltas = runs.flatMap((run) =>
    run.results.instances
      .filter((i) => i.composite)
      .map((i) => ({ model: run.model, delta: i.composite!.kAct - i.composite!.kOpt })),
  );
  const overhead = {
    title: "Step overhead Δ = K_act − K_opt (composite instances)",
    width: 360,
    height: 220,
    data: { values: deltas },
    mark: { type: "bar", tooltip: true },
    encoding: {
      x: { field: "delta", type: "ordinal", title: "Δ" },
      xOffset: { field: "model" },
      y: { aggregate: "count", type: "quantitative", title: "instances" },
      color: { field: "model", type: "nominal" },
    },
  };
  const figures: Record<string, Spec> = {
    "atomic-vs-composite": scatter,
    "atomic-subcategories": barBy(
      "Pass rate by atomic subcategory",
      passRateBy(runs, "atomic"),
      "subcategory",
    ),
    "composite-patterns": barBy(
      "Pass rate by composite workflow pattern",
      passRateBy(runs, "composite"),
      "workflow pattern",
    ),
    "step-overhead": overhead,
  };
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(figures)) out[name] = await renderSvg(spec);
  return out;
}
