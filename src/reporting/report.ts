import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { modelSlug } from "../runOptions.ts";
import { renderReportHtml } from "./html.ts";
import { leaderboard, renderLeaderboardMarkdown } from "./leaderboard.ts";
import { loadRuns, mergeRuns } from "./merge.ts";

export type WriteReportParameters = { inputs: string[]; out: string; force?: boolean };

/**
 * `questbench report`: merges results of several models and shards, then writes `leaderboard.md`,
 * `report.html` and one merged `results.json` per model under `<out>/runs/<model>/`.
 * @throws {MergeError} when inputs disagree (unless `force`).
 */
export async function writeReport(p: WriteReportParameters) {
  const { merged, warnings } = mergeRuns(loadRuns(p.inputs), { force: p.force });
  const rows = leaderboard(merged);
  mkdirSync(p.out, { recursive: true });
  writeFileSync(path.join(p.out, "leaderboard.md"), renderLeaderboardMarkdown(rows));
  writeFileSync(path.join(p.out, "report.html"), await renderReportHtml(merged, rows));
  for (const run of merged) {
    const dir = path.join(p.out, "runs", modelSlug(run.model));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "results.json"), `${JSON.stringify(run.results, null, 2)}\n`);
  }
  return { rows, merged, warnings };
}
