import { ProviderCallError } from "./errors.ts";

/** Identical non-retryable 4xx answers after which a run stops (e.g. 404 model not found, 401 bad key). */
export const DEFAULT_STOP_AFTER_IDENTICAL_4XX = 3;

/** Statuses the SDKs retry themselves (timeout, conflict, rate limit): transient, never a reason to stop. */
const TRANSIENT = new Set([408, 409, 429]);

/**
 * A per-run circuit breaker over provider answers: the `threshold`-th identical non-retryable 4xx
 * answer (same status, same message) turns into one fatal `run_stopped` error, and every call after
 * it fails at once with that error, without reaching the provider. A retired model id or a revoked
 * key then stops a run after a few calls instead of failing every instance the same way; an endpoint
 * that refuses tool definitions (`tools_unsupported`, `--protocol tools`) stops it at the first.
 */
export type FailureBreaker = {
  /** Counts `error`; returns it unchanged, or the fatal error once the threshold is reached. */
  record(error: ProviderCallError): ProviderCallError;
  /** The fatal error once tripped, else undefined. */
  stopped(): ProviderCallError | undefined;
};

export function createFailureBreaker(threshold = DEFAULT_STOP_AFTER_IDENTICAL_4XX): FailureBreaker {
  const counts = new Map<string, number>();
  let stop: ProviderCallError | undefined;
  return {
    record(error) {
      if (stop) return stop;
      const s = error.status;
      if (s === undefined || s < 400 || s >= 500 || TRANSIENT.has(s)) return error;
      const n = (counts.get(error.shortMessage) ?? 0) + 1;
      counts.set(error.shortMessage, n);
      // An endpoint without tool calling answers every request alike: stop at the first.
      const tools = error.code === "tools_unsupported";
      if (n < (tools ? 1 : threshold)) return error;
      stop = new ProviderCallError(
        tools
          ? `run stopped: ${error.shortMessage}; no further instance is started. Run this model without --protocol tools`
          : `run stopped after ${n} identical answers (${error.shortMessage}); no further instance is started. Check the model id and the key; the same command again retries the unfinished instances`,
        { code: "run_stopped", status: s },
      );
      // Its place in our code says nothing a reader can act on: print as the one line it is.
      stop.stack = `${stop.name}: ${stop.message}`;
      return stop;
    },
    stopped: () => stop,
  };
}
