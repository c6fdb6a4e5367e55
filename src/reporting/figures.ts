/**
 * The report's figures (docs/RUNNING.md "Reports"): the data of each figure
 * (src/reporting/figureData.ts) drawn as a Vega-Lite spec (src/reporting/figureSpecs.ts), rendered
 * here to SVG by Vega, with no browser and no network, and to PNG by resvg.
 */
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import type { MergedRun } from "../results/merge.ts";
import {
  figure2Data,
  MAX_BARS_PER_GROUP,
  mostFrequent,
  overheadCounts,
  passRateBy,
  patternOf,
  pooled,
  scatterData,
} from "./figureData.ts";
import {
  figure2Specs,
  overheadSpec,
  passRateBars,
  type Rate,
  type Spec,
  scatterSpec,
} from "./figureSpecs.ts";
import type { LeaderboardRow } from "./leaderboard.ts";

const require = createRequire(import.meta.url);
// vega/vega-lite 5 are CommonJS-friendly; loaded lazily so runs that never render pay nothing.
const vl = () => require("vega-lite") as typeof import("vega-lite");
const vega = () => require("vega") as typeof import("vega");

const FONT = "system-ui, sans-serif";
const CONFIG = {
  font: FONT,
  title: { fontSize: 14, anchor: "start", offset: 10 },
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 360 },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: "top", direction: "horizontal", labelLimit: 220 },
  view: { stroke: null },
};

/** Advance widths (em) of DejaVu Sans, the font the PNGs are drawn with, by class of character. */
const EM: [RegExp, number][] = [
  [/[ijlI.,:;'|!()[\]{} ]/, 0.32],
  [/[frt]/, 0.4],
  [/[mwMW@%]/, 0.92],
  [/[A-Z]/, 0.7],
  [/[0-9]/, 0.64],
];

/**
 * A text's width in px, from per-character widths. Vega without a canvas (Node) estimates every
 * character at 0.8 em, which made the canvas of a figure with a long title or labels far wider
 * than what it draws (Figure 3's was twice its plot); these widths are DejaVu Sans's, at least
 * those of the browsers' sans-serif fonts, so nothing is cut off and little is left empty.
 */
function textWidth(item: { fontSize?: number; fontWeight?: string | number }, text: unknown): number {
  const size = item.fontSize ?? 11;
  const bold = item.fontWeight === "bold" || Number(item.fontWeight) >= 600 ? 1.08 : 1;
  let em = 0;
  for (const c of String(text ?? "")) em += EM.find(([re]) => re.test(c))?.[1] ?? 0.6;
  return Math.ceil(em * size * bold);
}

/** Renders a Vega-Lite spec to a standalone SVG string (no browser, no network). */
export async function renderSvg(spec: Spec): Promise<string> {
  (vega() as unknown as { textMetrics: { width: typeof textWidth } }).textMetrics.width = textWidth;
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

/**
 * The report's figures as SVG strings keyed by file name (without `.svg`): the paper's Figure 2a/2b
 * (task bank), 3 (Atomic vs Composite), 4 (every workflow pattern), 5 (the ten most frequent
 * patterns), 6 (step overhead) and 7 (atomic subcategories); 4–7 per model.
 */
export async function renderFigures(
  runs: readonly MergedRun[],
  rows: readonly LeaderboardRow[],
): Promise<Record<string, string>> {
  const patterns = passRateBy(runs, "composite", patternOf);
  const top = mostFrequent(patterns, 10);
  const models = runs.length;
  // Figures 4, 5 and 7 compare models (one bar per model and group) while a reader can tell the bars
  // apart; beyond that they are pooled, and the title says so.
  const barModels = models <= MAX_BARS_PER_GROUP ? models : 1;
  const perModel = (rates: Rate[]) => (barModels === 1 && models > 1 ? pooled(rates) : rates);
  const pooledNote = barModels === 1 && models > 1 ? `, ${models} models pooled` : "";
  const figures: Record<string, Spec> = {
    ...figure2Specs(figure2Data(runs)),
    "fig3-atomic-vs-composite": scatterSpec(scatterData(rows)),
    "fig4-workflow-patterns": passRateBars(
      `Pass rate by composite workflow pattern (hardest first${pooledNote})`,
      perModel(patterns),
      barModels,
    ),
    "fig5-top-patterns": passRateBars(
      `Pass rate for the ten most frequent workflow patterns${pooledNote}`,
      perModel(patterns.filter((p) => top.has(p.group))),
      barModels,
    ),
    "fig6-step-overhead": overheadSpec(overheadCounts(runs)),
    "fig7-atomic-subcategories": passRateBars(
      `Pass rate by atomic subcategory (hardest first${pooledNote})`,
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
