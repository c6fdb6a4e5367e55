import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { modelSlug } from "../runOptions.ts";
import { renderFigures, svgToPng } from "./figures.ts";
import { renderReportHtml } from "./html.ts";
import { leaderboard } from "./leaderboard.ts";
import { loadRuns, mergeRuns } from "./merge.ts";
import { statsTables } from "./statsTables.ts";
import { renderLeaderboardLatex, renderLeaderboardMarkdown, tableMarkdown } from "./tables.ts";

export type WriteReportParameters = { inputs: string[]; out: string; force?: boolean };

/**
 * `questbench report`: merges results of several models and shards, then writes `leaderboard.md`,
 * `leaderboard.tex` (booktabs), `report.html`, every figure as `figures/<name>.svg` and as a 300-dpi
 * `figures/<name>.png` (for LaTeX and word processors), and one merged
 * `results.json` per model under `<out>/runs/<model>/`.
 * @throws {MergeError} when inputs disagree: world, fork, task versions, task sets or modes (unless `force`,
 *   then each disagreement is a warning printed at the head of leaderboard.md and report.html).
 */
export async function writeReport(p: WriteReportParameters) {
  const { merged, warnings } = mergeRuns(loadRuns(p.inputs), { force: p.force });
  const rows = leaderboard(merged);
  mkdirSync(p.out, { recursive: true });
  // pass^k per split and the pairwise comparisons need the instances, not only the rows: appended here.
  const stats = statsTables(merged).map((t) => `\n${tableMarkdown(t)}\n`);
  writeFileSync(
    path.join(p.out, "leaderboard.md"),
    renderLeaderboardMarkdown(rows, warnings) + stats.join(""),
  );
  writeFileSync(path.join(p.out, "leaderboard.tex"), renderLeaderboardLatex(rows));
  const figures = await renderFigures(merged, rows);
  mkdirSync(path.join(p.out, "figures"), { recursive: true });
  for (const [name, svg] of Object.entries(figures)) {
    writeFileSync(path.join(p.out, "figures", `${name}.svg`), svg);
    writeFileSync(path.join(p.out, "figures", `${name}.png`), svgToPng(svg));
  }
  writeFileSync(path.join(p.out, "report.html"), renderReportHtml(merged, rows, figures, warnings));
  for (const run of merged) {
    const dir = path.join(p.out, "runs", modelSlug(run.model));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "results.json"), `${JSON.stringify(run.results, null, 2)}\n`);
  }
  return { rows, merged, warnings };
}
