import { AsyncLocalStorage } from "node:async_hooks";
import type { RetryNotice } from "../types.ts";

/**
 * What the SDKs' own retry loops do, made visible: both SDKs take a `fetch` (ClientOptions.fetch);
 * {@link retryObservingFetch} sees every HTTP try of a call, and {@link observeRetries} ties the tries
 * to the call that made them (AsyncLocalStorage follows the SDK's awaits and backoff timers). The
 * decision to retry stays the SDK's: an answer is announced as retried by the rule the SDKs apply
 * (`x-should-retry`, else 408, 409, 429 and 5xx; a failed connection or a timeout) while tries remain.
 */

type CallTrace = {
  tries: number;
  retries: number;
  waitedMs: number;
  answeredAtMs: number | null;
  onRetry: ((notice: RetryNotice) => void) | undefined;
};

const current = new AsyncLocalStorage<CallTrace>();

const retriedStatus = (status: number, header: string | null) =>
  header === "true" ||
  (header !== "false" && (status === 408 || status === 409 || status === 429 || status >= 500));

/** The wait an answer asks for (`retry-after-ms`, else `retry-after` in seconds or as a date), in ms; null if none. */
export function retryAfterMs(headers: Headers): number | null {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (!Number.isNaN(ms)) return ms;
  const value = headers.get("retry-after");
  if (!value) return null;
  const seconds = Number.parseFloat(value);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/**
 * A `fetch` for an SDK client with `maxRetries`: passes every request to the global fetch and, inside
 * {@link observeRetries}, counts the tries of the call and announces each answer the SDK will retry.
 */
export function retryObservingFetch(maxRetries: number): typeof fetch {
  return async (input, init) => {
    const trace = current.getStore();
    if (trace) {
      if (trace.answeredAtMs !== null) trace.waitedMs += performance.now() - trace.answeredAtMs;
      trace.answeredAtMs = null;
      trace.tries++;
    }
    const announce = (status: number | null, waitMs: number | null) => {
      if (!trace || trace.tries > maxRetries) return;
      trace.retries++;
      trace.answeredAtMs = performance.now();
      trace.onRetry?.({ status, retry: trace.retries, maxRetries, retryAfterMs: waitMs });
    };
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      announce(null, null);
      throw error;
    }
    if (!response.ok && retriedStatus(response.status, response.headers.get("x-should-retry")))
      announce(response.status, retryAfterMs(response.headers));
    return response;
  };
}

/**
 * Runs one SDK call with its tries observed.
 * @returns the call's value with the retries the SDK made before it and the ms it waited between tries.
 */
export async function observeRetries<T>(
  onRetry: ((notice: RetryNotice) => void) | undefined,
  call: () => Promise<T>,
): Promise<{ value: T; retries: number; retryWaitMs: number }> {
  const trace: CallTrace = { tries: 0, retries: 0, waitedMs: 0, answeredAtMs: null, onRetry };
  const value = await current.run(trace, call);
  return { value, retries: trace.retries, retryWaitMs: Math.round(trace.waitedMs) };
}
