import { compositeMetrics, renderCompositeMetrics } from "./metrics.ts";
import type { InstanceResult, RunResults, SplitSummary } from "./types.ts";

/** Maximum score of one instance. */
export const INSTANCE_MAX = 100;

/** Split totals of the paper's Table 1 (§3.7): score sums, maxima, passes, counts. */
export function summarize(instances: readonly InstanceResult[]): RunResults["summary"] {
  const of = (split?: "atomic" | "composite"): SplitSummary => {
    const xs = split ? instances.filter((i) => i.split === split) : instances;
    return {
      score: Math.round(xs.reduce((s, i) => s + i.score, 0) * 100) / 100,
      max: xs.length * INSTANCE_MAX,
      passed: xs.filter((i) => i.passed).length,
      count: xs.length,
    };
  };
  return {
    atomic: of("atomic"),
    composite: of("composite"),
    total: of(),
    compositeMetrics: compositeMetrics(instances),
  };
}

const pad = (s: string, n: number, right = false) => (right ? s.padStart(n) : s.padEnd(n));

/** The table printed as a run ends (pure: tested on its own). */
export function renderSummary(summary: RunResults["summary"], model: string): string {
  const rows: [string, SplitSummary][] = [
    ["Atomic", summary.atomic],
    ["Composite", summary.composite],
    ["Total", summary.total],
  ];
  const lines = [
    `EVM-QuestBench — model ${model}`,
    `${pad("split", 10)} ${pad("score", 13, true)} ${pad("passed", 11, true)} ${pad("avg", 7, true)}`,
  ];
  for (const [name, s] of rows) {
    const avg = s.count === 0 ? "—" : (s.score / s.count).toFixed(1);
    lines.push(
      `${pad(name, 10)} ${pad(`${s.score} / ${s.max}`, 13, true)} ${pad(`${s.passed} / ${s.count}`, 11, true)} ${pad(avg, 7, true)}`,
    );
  }
  if (summary.compositeMetrics) lines.push(renderCompositeMetrics(summary.compositeMetrics));
  return lines.join("\n");
}

/** One line per instance that did not score 100, for the end of a run. */
export function renderShortfalls(instances: readonly InstanceResult[]): string[] {
  return instances
    .filter((i) => i.score < INSTANCE_MAX)
    .map(
      (i) =>
        `  ${i.taskId} (seed ${i.seed}, epoch ${i.epoch}): ${i.score}${i.failure ? ` — ${i.failure.class}${i.failure.code ? `/${i.failure.code}` : ""}: ${i.failure.reason.slice(0, 160)}` : ""}`,
    );
}
