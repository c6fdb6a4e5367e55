import type { RetryNotice } from "../models/types.ts";
import type { InstanceOutcome } from "../results/outcome.ts";

/**
 * Progress of a run as a person follows it (pure renderers; the reporter only prints them). In a
 * terminal a live line is redrawn; without one (CI logs) each finished instance is one plain line,
 * so a long run with a slow model is never silent.
 */

/** Score at or above which an instance passes (paper §3.7). */
export const PASS_MARK = 60;

/** Instances attempted (not resumed) that must finish before the ETA is estimated: until then it shows "—". */
export const ETA_AFTER = 3;

/** Running totals of a run; `feed` one outcome per finished instance. */
export type Progress = {
  total: number;
  done: number;
  /** Sum of the scores of the scored instances, and their maximum (100 each). */
  score: number;
  max: number;
  /** USD paid by this invocation so far (provider models with a price), else 0. */
  spentUsd: number;
  /** A finished instance had a priced provider's usage: the spend is shown (never "$0.0000" for a free model). */
  priced: boolean;
  startedAtMs: number;
  /** Instances attempted in this run that finished (resumed, skipped and not started ones excluded). */
  measured: number;
  /** When the first and the latest of them finished (ms since the epoch). */
  firstFinishedAtMs: number | null;
  lastFinishedAtMs: number | null;
  /** Provider requests sent again after a 429, 5xx, timeout or malformed answer, and the time waited before them. */
  retries: number;
  retryWaitMs: number;
};

export function startProgress(total: number, startedAtMs: number): Progress {
  return {
    total,
    done: 0,
    score: 0,
    max: 0,
    spentUsd: 0,
    priced: false,
    startedAtMs,
    measured: 0,
    firstFinishedAtMs: null,
    lastFinishedAtMs: null,
    retries: 0,
    retryWaitMs: 0,
  };
}

/** The totals after one more finished instance (a new object), finished at `nowMs`. */
export function feed(p: Progress, outcome: InstanceOutcome, nowMs = Date.now()): Progress {
  const next = { ...p, done: p.done + 1 };
  if (outcome.kind === "scored" || outcome.kind === "resumed" || outcome.kind === "infra_error") {
    next.score = Math.round((p.score + outcome.result.score) * 100) / 100;
    next.max = p.max + 100;
  }
  if (outcome.kind === "scored" || outcome.kind === "provider_error" || outcome.kind === "infra_error") {
    const usage = outcome.result.usage;
    next.spentUsd = p.spentUsd + (usage?.spentUsd ?? 0);
    next.priced = p.priced || typeof usage?.spentUsd === "number";
    next.retries = p.retries + (usage?.retries ?? 0);
    next.retryWaitMs = p.retryWaitMs + (usage?.retryWaitMs ?? 0);
    next.measured = p.measured + 1;
    next.firstFinishedAtMs = p.firstFinishedAtMs ?? nowMs;
    next.lastFinishedAtMs = nowMs;
  }
  return next;
}

/**
 * Estimated time left, or null until {@link ETA_AFTER} attempted instances have finished: the rate
 * is measured between the first and the latest of them, so the start-up (Anvil, the first sandbox
 * child, a cold provider) and instances resumed in no time do not count as a pace.
 */
export function etaMs(p: Progress, nowMs: number): number | null {
  if (p.measured < ETA_AFTER || p.firstFinishedAtMs === null || p.lastFinishedAtMs === null) return null;
  const elapsed = p.lastFinishedAtMs - p.firstFinishedAtMs;
  if (elapsed <= 0) return null;
  const perInstance = elapsed / (p.measured - 1);
  return Math.max(0, perInstance * (p.total - p.done) - (nowMs - p.lastFinishedAtMs));
}

const clock = (ms: number | null) => {
  if (ms === null) return "—";
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
};

const usd = (x: number) => `$${x.toFixed(x < 1 ? 4 : 2)}`;

/**
 * done/total, running score, ETA, spend (once a priced provider's instance finished) and retries (when
 * any): the live line's text and every plain line's tail.
 */
export function renderTotals(p: Progress, nowMs: number): string {
  const retries = p.retries > 0 ? ` · retries ${p.retries} (waited ${clock(p.retryWaitMs)})` : "";
  const spent = p.priced ? ` · spent ${usd(p.spentUsd)}` : "";
  return `${p.done}/${p.total} · score ${p.score}/${p.max} · ETA ${clock(etaMs(p, nowMs))}${spent}${retries}`;
}

/** One line for a retry in progress: which instance waits, why, and for how long when the provider said. */
export function renderRetry(name: string, r: RetryNotice): string {
  const why = r.status === null ? "no answer" : r.status < 300 ? "malformed answer" : `HTTP ${r.status}`;
  const wait = r.retryAfterMs === null ? "" : ` after ${clock(r.retryAfterMs)} (Retry-After)`;
  return `… ${name}  ${why}: retry ${r.retry}/${r.maxRetries}${wait}`;
}

/** How an outcome shows: its mark, its score or state, and why it did not pass. */
export function describeOutcome(outcome: InstanceOutcome): { mark: string; text: string; passed: boolean } {
  switch (outcome.kind) {
    case "scored":
    case "resumed": {
      const r = outcome.result;
      const passed = r.score >= PASS_MARK;
      const why = r.failure ? ` ${r.failure.class}` : r.score < 100 ? " partial" : "";
      return {
        mark: passed ? "✓" : "✗",
        text: `${r.score}${why}${outcome.kind === "resumed" ? " (resumed)" : ""}`,
        passed,
      };
    }
    case "infra_error":
      return { mark: "✗", text: "0 infra_error", passed: false };
    case "provider_error":
      return { mark: "!", text: "provider_error (not scored)", passed: false };
    case "not_started":
      return { mark: "-", text: "not started (--budget)", passed: false };
    case "skipped":
      return { mark: "-", text: "skipped (fork pre-state)", passed: false };
  }
}

/** The note a Vitest test carries (`context.annotate`): its score, and when below the pass mark, so. */
export function renderInstanceAnnotation(outcome: InstanceOutcome): string | undefined {
  if (outcome.kind === "skipped" || outcome.kind === "not_started") return undefined;
  const { text, passed } = describeOutcome(outcome);
  return `score ${text}${passed ? "" : ` — below the pass mark (${PASS_MARK})`}`;
}

/** One plain line for a finished instance (no ANSI codes): mark, name, score, then the totals. */
export function renderFinishedLine(
  name: string,
  outcome: InstanceOutcome,
  p: Progress,
  nowMs: number,
): string {
  const { mark, text } = describeOutcome(outcome);
  return `${mark} ${name}  ${text}  [${renderTotals(p, nowMs)}]`;
}

/** One line for an attempt sent to a fresh chain because its own failed under it (an infrastructure retry). */
export function renderInfraRetry(name: string, fault: string): string {
  return `… ${name}  the chain failed under the attempt (${fault}): running it again on a fresh instance`;
}
