import type { Price } from "./registry.ts";
import type { ModelResponse, Usage } from "./types.ts";

/** Tokens and cost of one instance's model calls (results.json `instances[].usage`, `summary.usage`). */
export type UsageRecord = {
  calls: number;
  /** Calls answered from the response cache. */
  cachedCalls: number;
  inputTokens: number;
  /** Reasoning tokens included. */
  outputTokens: number;
  /** List-price cost of every call, cached ones included (what the attempt costs); null without a price. */
  costUsd: number | null;
  /** What this run paid: calls not answered from the cache; null without a price. */
  spentUsd: number | null;
  /**
   * Requests sent again before an answer came (the SDK's retries after a 429, 408, 409, 5xx, timeout
   * or dropped connection, and the harness's after a malformed answer), and the milliseconds waited
   * before them. Absent when there were none.
   */
  retries?: number | undefined;
  retryWaitMs?: number | undefined;
};

const round = (x: number) => Math.round(x * 1e8) / 1e8;

/** Cost in USD of `usage` at `price` (USD per million tokens), or null when there is no price. */
export function costOf(usage: Usage, price: Price | null): number | null {
  if (!price) return null;
  return round((usage.inputTokens * price.input + usage.outputTokens * price.output) / 1e6);
}

/** Adds one call's response to a running record; responses without usage (reference, scripted) add nothing. */
export function addUsage(total: UsageRecord | undefined, response: ModelResponse): UsageRecord | undefined {
  if (!response.usage) return total;
  const t = total ?? { calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, spentUsd: 0 };
  const cost = response.costUsd ?? null;
  return withRetries(
    {
      calls: t.calls + 1,
      cachedCalls: t.cachedCalls + (response.cached ? 1 : 0),
      inputTokens: t.inputTokens + response.usage.inputTokens,
      outputTokens: t.outputTokens + response.usage.outputTokens,
      costUsd: t.costUsd === null || cost === null ? null : round(t.costUsd + cost),
      spentUsd:
        t.spentUsd === null || cost === null ? null : round(t.spentUsd + (response.cached ? 0 : cost)),
    },
    (t.retries ?? 0) + (response.retries ?? 0),
    (t.retryWaitMs ?? 0) + (response.retryWaitMs ?? 0),
  );
}

/** A record with its retry counts, which are left out when zero. */
const withRetries = (r: UsageRecord, retries: number, retryWaitMs: number): UsageRecord =>
  retries > 0 ? { ...r, retries, retryWaitMs: Math.round(retryWaitMs) } : r;

/** Sums usage records (a run's total); null costs make the total cost null. */
export function sumUsage(records: readonly (UsageRecord | undefined)[]): UsageRecord {
  const xs = records.filter((r): r is UsageRecord => r !== undefined);
  const sum = (f: (r: UsageRecord) => number) => xs.reduce((s, r) => s + f(r), 0);
  const money = (f: (r: UsageRecord) => number | null) =>
    xs.some((r) => f(r) === null) ? null : round(sum((r) => f(r)!));
  return withRetries(
    {
      calls: sum((r) => r.calls),
      cachedCalls: sum((r) => r.cachedCalls),
      inputTokens: sum((r) => r.inputTokens),
      outputTokens: sum((r) => r.outputTokens),
      costUsd: money((r) => r.costUsd),
      spentUsd: money((r) => r.spentUsd),
    },
    sum((r) => r.retries ?? 0),
    sum((r) => r.retryWaitMs ?? 0),
  );
}

/**
 * A prior estimate of one attempt's tokens, before any call has been made (the `--budget` projection
 * until real instances have finished; docs/RUNNING.md "Cost to expect"). Prompt tokens ≈ characters / 3.5 (hex
 * addresses tokenize poorly). Atomic: one call, ~1,500 output tokens. Composite: a plan call and
 * `optimalSteps + 1` round calls (one extra for the submit), each re-sending the whole conversation,
 * ~1,000 output tokens and ~150 feedback tokens per round. Reasoning models emit several times more
 * output. `--protocol tools` (docs/PROTOCOLS.md): the prompt includes the tool definitions; K_opt + 2
 * turns (K_opt 1 for an atomic task: a look, the transaction, the finish), each ~400 output tokens and
 * ~600 tokens of calls and results added to the conversation.
 */
export function estimateAttemptUsage(p: {
  promptChars: number;
  split: "atomic" | "composite";
  optimalSteps?: number | undefined;
  protocol?: "paper" | "tools" | undefined;
}): { calls: number; inputTokens: number; outputTokens: number } {
  const prompt = Math.ceil(p.promptChars / 3.5);
  if (p.protocol === "tools") {
    const turns = (p.split === "atomic" ? 1 : (p.optimalSteps ?? 3)) + 2;
    let input = 0;
    for (let i = 0; i < turns; i++) input += prompt + i * 600;
    return { calls: turns, inputTokens: input, outputTokens: turns * 400 };
  }
  if (p.split === "atomic") return { calls: 1, inputTokens: prompt, outputTokens: 1500 };
  const calls = (p.optimalSteps ?? 3) + 2;
  let input = 0;
  for (let i = 0; i < calls; i++) input += prompt + i * 1150;
  return { calls, inputTokens: input, outputTokens: calls * 1000 };
}
