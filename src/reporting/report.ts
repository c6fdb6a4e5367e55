import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { writeResultsFile } from "../results/folder.ts";
import { loadRuns } from "../results/load.ts";
import { mergeRuns } from "../results/merge.ts";
import { modelSlug } from "../runOptions.ts";
import { renderFigures, svgToPng } from "./figures.ts";
import { renderReportHtml } from "./html.ts";
import { leaderboard } from "./leaderboard.ts";
import { statsTables } from "./statsTables.ts";
import { renderLeaderboardLatex, renderLeaderboardMarkdown, tableMarkdown } from "./tables.ts";

export type WriteReportParameters = { inputs: string[]; out: string; force?: boolean };

/**
 * `questbench report`: merges results of several models and shards, then writes `leaderboard.md`,
 * `leaderboard.tex` (booktabs), `report.html`, every figure as `figures/<name>.svg` and as a 300-dpi
 * `figures/<name>.png` (for LaTeX and word processors), and one merged
 * `results.json` per model under `<out>/runs/<model>/`.
 * Reads and merges through the results recorder (src/results/load.ts, merge.ts) and renders from
 * the results alone: no task folder is read (docs/ARCHITECTURE.md "A table or a figure").
 * @throws {MergeError} naming the file when an input is not a results.json; when inputs disagree: world, fork, task versions, task sets or modes (unless `force`,
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
  for (const run of merged) writeResultsFile(path.join(p.out, "runs", modelSlug(run.model)), run.results);
  return { rows, merged, warnings };
}
