import { INSTANCE_MAX, isProviderError, splitAverage } from "../results/reduce.ts";
import type {
  CompositeMetrics,
  HardSummary,
  InstanceResult,
  RunResults,
  SplitSummary,
} from "../results/types.ts";

// The summary is computed by the results recorder (src/results/summarize.ts); its renderers are here.

const usd = (x: number | null) => (x === null ? "unknown (no price)" : `$${x.toFixed(x < 1 ? 4 : 2)}`);

const pad = (s: string, n: number, right = false) => (right ? s.padStart(n) : s.padEnd(n));

/** The paper's task count (Table 1's 107): a paper total is "Paper total" only over all of them. */
const PAPER_TASKS = 107;

/**
 * The rows of one task set in the end-of-run table, labelled by what ran: an atomic row and a
 * composite row for the kinds that ran, and their sum when both did ("Paper total" only over all 107
 * paper tasks, else "Paper subset"; "Hard total", "Custom total"). None when the set ran nothing.
 */
function setRows(prefix: "Paper" | "Hard" | "Custom", s: HardSummary): [string, SplitSummary][] {
  const rows: [string, SplitSummary][] = [];
  if (s.atomic.tasks > 0) rows.push([`${prefix} atomic`, s.atomic]);
  if (s.composite.tasks > 0) rows.push([`${prefix} composite`, s.composite]);
  if (s.atomic.tasks > 0 && s.composite.tasks > 0)
    rows.push([
      prefix !== "Paper" ? `${prefix} total` : s.total.tasks === PAPER_TASKS ? "Paper total" : "Paper subset",
      s.total,
    ]);
  return rows;
}

/**
 * The table printed as a run ends (pure: tested on its own). Each task set that ran has its own rows,
 * labelled by what ran (`Paper atomic 6200 / 6200` for `--split atomic`; "Paper total", max 10,700,
 * only over all 107 paper tasks): the paper's first, then the hard split (tasks/hard/README.md) and
 * the task packs' tasks (`Custom`, README "Write your own task"), never added to the paper's.
 * @param paidUsd what this invocation paid (results.json `manifest.selection.paidUsd`); without it,
 *   what the summed instances paid when they ran.
 */
export function renderSummary(
  summary: RunResults["summary"],
  model: string,
  paidUsd?: number | null | undefined,
): string {
  const paper = { atomic: summary.atomic, composite: summary.composite, total: summary.total };
  const rows: [string, SplitSummary][] = [
    ...setRows("Paper", paper),
    ...(summary.hard ? setRows("Hard", summary.hard) : []),
    ...(summary.custom ? setRows("Custom", summary.custom) : []),
  ];
  if (rows.length === 0) rows.push(["Paper atomic", summary.atomic], ["Paper composite", summary.composite]);
  const lines = [
    `EVM-QuestBench — model ${model}`,
    `${pad("split", 16)} ${pad("score", 13, true)} ${pad("passed", 11, true)} ${pad("avg", 7, true)}`,
  ];
  for (const [name, s] of rows) {
    const avg = splitAverage(s)?.toFixed(1) ?? "—";
    lines.push(
      `${pad(name, 16)} ${pad(`${s.score} / ${s.max}`, 13, true)} ${pad(`${s.passed} / ${s.count}`, 11, true)} ${pad(avg, 7, true)}`,
    );
  }
  if (summary.paperScoring) {
    const p = summary.paperScoring;
    lines.push(
      `Paper scoring (--scoring paper, beside ours, never added to it): atomic ${p.atomic.score} / ${p.atomic.max}, composite ${p.composite.score} / ${p.composite.max}, total ${p.total.score} / ${p.total.max} (${p.total.passed} / ${p.total.count} passed)`,
    );
  }
  if (summary.safety) {
    const flagged = Object.entries(summary.safety.flags).map(([f, n]) => `${f} ${n}`);
    lines.push(
      `Safety: ${summary.safety.pct}% (${summary.safety.safe} / ${summary.safety.judged} instances without a safety flag${flagged.length ? `; ${flagged.join(", ")}` : ""})`,
    );
  }
  if (summary.execution) {
    const e = summary.execution;
    lines.push(
      `Execution cost vs the gold answer: ${e.medianCostBps === null ? "—" : `median ${e.medianCostBps} bps of notional (P90 ${e.p90CostBps}) over ${e.priced} instances`} · gas × gold: ${e.medianGasRatio === null ? "—" : `median ${e.medianGasRatio}`}`,
    );
  }
  if (summary.compositeMetrics) lines.push(renderCompositeMetrics(summary.compositeMetrics));
  if (summary.usage) {
    const u = summary.usage;
    lines.push(
      `Tokens: ${u.inputTokens} in, ${u.outputTokens} out in ${u.calls} calls (${u.cachedCalls} from the cache) · cost ${usd(u.costUsd)}, paid by this run ${usd(paidUsd === undefined ? u.spentUsd : paidUsd)}`,
    );
  }
  const e = summary.providerErrors;
  const unscored = e ? e.total + (e.hard ?? 0) + (e.custom ?? 0) : 0;
  if (unscored)
    lines.push(
      `Provider errors: ${unscored} instance(s) not scored (left out of scores and maxima above); run the same command again to retry them.`,
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

/** One line for the end of a run. */
export function renderCompositeMetrics(m: CompositeMetrics): string {
  return `Composite quality: K_act ${m.meanKAct} (failed ${m.meanKFailed}, queries ${m.meanKQuery}) · retries ${m.totalRetries ?? "—"} · Eff ${m.effPct}% · 1st ${m.firstTryPct}% · ethers ${m.ethersPct}% · Δ mean ${m.overhead.mean}, over-optimal ${m.overhead.overOptimalPct}%, P90 ${m.overhead.p90}`;
}

/**
 * Everything printed as a run ends, after the per-instance lines: the totals table, the instances
 * below 100, those not started or skipped, resumed ones, a missing sandbox barrier, infra retries.
 */
export function renderRunEnd(
  results: RunResults,
  options: { model: string; budget?: number | undefined },
): string {
  const { instances, notStarted = [], skipped = [] } = results;
  const selection = results.manifest.selection;
  const lines = [renderSummary(results.summary, results.manifest.model, selection?.paidUsd)];
  if (results.interrupted) lines.push("Interrupted: the totals cover the instances that finished.");
  const shortfalls = renderShortfalls(instances);
  if (shortfalls.length > 0) lines.push("Instances below 100:", ...shortfalls);
  const byBudget = notStarted.filter((n) => n.reason === "budget");
  const byEarlyStop = notStarted.filter((n) => n.reason === "early_stop");
  if (byBudget.length > 0)
    lines.push(`Not started (--budget ${options.budget} USD): ${byBudget.map((n) => n.taskId).join(", ")}`);
  if (byEarlyStop.length > 0)
    lines.push(
      `Not started (--early-stop: schema failures in a row ended the run, paper §5.3): ${byEarlyStop.length} instance(s), left out of the scores and coverage: ${byEarlyStop.map((n) => n.taskId).join(", ")}`,
    );
  if (skipped.length > 0)
    lines.push(
      `Skipped on the fork (pre-state not provisioned; not a model failure): ${skipped.length} instance(s), left out of the scores and maxima above (${skipped.length * 100} points).`,
      ...skipped.map((s) => `  ${s.taskId} (epoch ${s.epoch}): ${s.reason}`),
    );
  const resumed = instances.filter((i) => i.resumed).length;
  if (resumed > 0)
    lines.push(
      `Resumed: ${resumed} instance(s) kept from an earlier run into this --out (--fresh runs them again, replacing their results).`,
    );
  if (selection?.kept)
    lines.push(
      `Kept: ${selection.kept} instance(s) of earlier runs into this --out that this run did not select; the totals above cover all ${instances.length}.`,
    );
  const sandboxWarning = renderSandboxWarning(results.manifest.sandbox);
  if (sandboxWarning) lines.push(sandboxWarning);
  const retries = instances.reduce((n, i) => n + (i.infraRetries ?? 0), 0);
  if (retries > 0)
    lines.push(
      `Infrastructure retries: ${retries} attempt(s) run again after their Anvil instance failed (not scored).`,
    );
  return lines.join("\n");
}
