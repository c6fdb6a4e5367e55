// The `report` job of .github/workflows/benchmark.yml: checks every planned run job against the
// artifacts that arrived, merges the complete models with `questbench report`, and writes a summary
// (to <out>/summary.md and $GITHUB_STEP_SUMMARY) that names the models that failed or never reported.
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { MatrixEntry } from "./matrix.ts";
import type { RunStatusFile } from "./run-model.ts";

/** What became of one planned run job. */
export type RunOutcome = MatrixEntry & {
  state: "ok" | "failed" | "missing";
  /** One line for a failed or missing run. */
  detail: string;
};

/**
 * Each planned run job's outcome from its artifact directory `<dir>/<artifact>/`: `missing` without
 * one, `failed` when questbench exited non-zero, the job stopped before recording its exit code, or no
 * results.json was written; else `ok`.
 */
export function classifyRuns(matrix: { include: MatrixEntry[] }, dir: string): RunOutcome[] {
  return matrix.include.map((entry) => {
    const d = path.join(dir, entry.artifact);
    const outcome = (state: RunOutcome["state"], detail: string): RunOutcome => ({ ...entry, state, detail });
    if (!existsSync(d))
      return outcome("missing", "no artifact: the job was cancelled or failed before uploading");
    const statusFile = path.join(d, "status.json");
    if (!existsSync(statusFile))
      return outcome("failed", "no status.json: the job stopped before the run ended");
    const status = JSON.parse(readFileSync(statusFile, "utf8")) as RunStatusFile;
    if (status.exitCode !== 0)
      return outcome(
        "failed",
        status.exitCode === null ? `killed by ${status.signal}` : `questbench exited with ${status.exitCode}`,
      );
    if (!existsSync(path.join(d, "results.json"))) return outcome("failed", "exit 0 but no results.json");
    return outcome("ok", "");
  });
}

/** Models every shard of which is `ok` (only those enter the leaderboard: a partial model would mislead). */
export function completeModels(outcomes: readonly RunOutcome[]): string[] {
  const models = [...new Set(outcomes.map((o) => o.model))];
  return models.filter((m) => outcomes.filter((o) => o.model === m).every((o) => o.state === "ok"));
}

const label = (o: RunOutcome) => (o.shard ? `${o.model} (shard ${o.shard})` : o.model);

/** The job summary: failed and missing runs first, the per-run table, then the leaderboard (if any). */
export function renderSummary(outcomes: readonly RunOutcome[], leaderboard: string | null): string {
  const failed = outcomes.filter((o) => o.state === "failed");
  const missing = outcomes.filter((o) => o.state === "missing");
  const lines = ["# EVM-QuestBench benchmark", ""];
  if (failed.length)
    lines.push(`**Failed:** ${failed.map((o) => `${label(o)}: ${o.detail}`).join("; ")}`, "");
  if (missing.length) lines.push(`**Missing:** ${missing.map(label).join(", ")}`, "");
  if (!failed.length && !missing.length) lines.push(`All ${outcomes.length} run(s) finished.`, "");
  lines.push("| Model | Shard | Run | Detail |", "|---|---|---|---|");
  for (const o of outcomes)
    lines.push(`| ${o.model} | ${o.shard || "—"} | ${o.state} | ${o.detail || "—"} |`);
  lines.push("");
  lines.push(
    leaderboard === null
      ? "No model finished every run: no leaderboard."
      : `Leaderboard (models whose every run finished):\n\n${leaderboard.trim()}`,
    "",
  );
  return lines.join("\n");
}

/**
 * Classifies the runs in `dir`, merges the complete models into `out` with `questbench report`, and
 * writes `out/summary.md` (and appends it to `summaryFile`, e.g. $GITHUB_STEP_SUMMARY).
 * @returns 0 when at least one model was merged, else 1.
 */
export function mergeSummary(p: {
  matrix: { include: MatrixEntry[] };
  dir: string;
  out: string;
  summaryFile?: string | undefined;
}): number {
  const outcomes = classifyRuns(p.matrix, p.dir);
  const complete = new Set(completeModels(outcomes));
  const inputs = outcomes.filter((o) => complete.has(o.model)).map((o) => path.join(p.dir, o.artifact));
  let leaderboard: string | null = null;
  mkdirSync(p.out, { recursive: true });
  if (inputs.length > 0) {
    const bin = fileURLToPath(new URL("../../bin/questbench.mjs", import.meta.url));
    const r = spawnSync(process.execPath, [bin, "report", ...inputs, "--out", p.out], { stdio: "inherit" });
    if (r.status === 0) leaderboard = readFileSync(path.join(p.out, "leaderboard.md"), "utf8");
    else console.log(`::error title=benchmark report::questbench report exited with ${r.status}`);
  }
  for (const o of outcomes)
    if (o.state !== "ok") console.log(`::error title=${o.state} run::${label(o)}: ${o.detail}`);
  const summary = renderSummary(outcomes, leaderboard);
  writeFileSync(path.join(p.out, "summary.md"), summary);
  if (p.summaryFile) appendFileSync(p.summaryFile, summary);
  return leaderboard === null ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir = "results", out = "report"] = process.argv.slice(2);
  process.exitCode = mergeSummary({
    matrix: JSON.parse(process.env.MATRIX ?? '{"include":[]}'),
    dir,
    out,
    summaryFile: process.env.GITHUB_STEP_SUMMARY,
  });
}
