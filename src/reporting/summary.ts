import { sumUsage } from "../models/usage.ts";
import { compositeMetrics, renderCompositeMetrics } from "./metrics.ts";
import type { InstanceResult, RunResults, SplitSummary } from "./types.ts";

/** Maximum score of one instance. */
export const INSTANCE_MAX = 100;

/** An instance the provider never answered (after retries): it has no score, not a 0. */
export const isProviderError = (i: InstanceResult) => i.failure?.class === "provider_error";

/**
 * Split totals of the paper's Table 1 (§3.7): score sums, maxima, passes, counts. Instances with a
 * `provider_error` are left out of every split's score, max, passed and count, and out of the composite
 * metrics: they are no model failure, and the next run into the same `--out` retries them. They are
 * counted in `providerErrors` instead; `usage` sums tokens and cost. Both of those are present only in
 * runs of provider models.
 */
export function summarize(all: readonly InstanceResult[]): RunResults["summary"] {
  const instances = all.filter((i) => !isProviderError(i));
  const failed = all.filter(isProviderError);
  const provider = failed.length > 0 || all.some((i) => i.usage);
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
    providerErrors: provider
      ? {
          atomic: failed.filter((i) => i.split === "atomic").length,
          composite: failed.filter((i) => i.split === "composite").length,
          total: failed.length,
        }
      : undefined,
    usage: provider ? sumUsage(all.map((i) => i.usage)) : undefined,
  };
}

const usd = (x: number | null) => (x === null ? "unknown (no price)" : `$${x.toFixed(x < 1 ? 4 : 2)}`);

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
  if (summary.usage) {
    const u = summary.usage;
    lines.push(
      `Tokens: ${u.inputTokens} in, ${u.outputTokens} out in ${u.calls} calls (${u.cachedCalls} from the cache) · cost ${usd(u.costUsd)}, paid by this run ${usd(u.spentUsd)}`,
    );
  }
  if (summary.providerErrors?.total)
    lines.push(
      `Provider errors: ${summary.providerErrors.total} instance(s) not scored (left out of scores and maxima above); run the same command again to retry them.`,
    );
  return lines.join("\n");
}

/** One line per instance that did not score 100, for the end of a run. */
export function renderShortfalls(instances: readonly InstanceResult[]): string[] {
  return instances
    .filter((i) => i.score < INSTANCE_MAX && !isProviderError(i))
    .map(
      (i) =>
        `  ${i.taskId} (seed ${i.seed}, epoch ${i.epoch}): ${i.score}${i.failure ? ` — ${i.failure.class}${i.failure.code ? `/${i.failure.code}` : ""}: ${i.failure.reason.slice(0, 160)}` : ""}`,
    );
}

/**
 * The warning printed after the totals when a sandbox barrier is missing (docs/SECURITY.md), or
 * undefined when every barrier is in force.
 */
export function renderSandboxWarning(sandbox: RunResults["manifest"]["sandbox"]): string | undefined {
  const missing = sandbox
    ? [sandbox.network, sandbox.memory].flatMap((barrier, i) =>
        barrier.kind === "none" ? [[i === 0 ? "network" : "memory", barrier] as const] : [],
      )
    : [];
  if (sandbox?.unsafe)
    return `Run with --unsafe-sandbox${sandbox.unsafe.length ? ` without: ${sandbox.unsafe.join("; ")}` : ""}. Scores of untrusted models are not trustworthy here (docs/SECURITY.md).`;
  if (missing.length === 0) return undefined;
  return `Sandbox without an OS barrier: ${missing.map(([name, b]) => `${name} (${b.detail})`).join("; ")}. Scores of untrusted models are not trustworthy here (docs/SECURITY.md).`;
}
