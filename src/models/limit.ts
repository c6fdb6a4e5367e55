/** A counting semaphore: at most `size` callers inside `run` at once, the rest wait in FIFO order. */
export function createLimit(size: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    get active() {
      return active;
    },
    async run<T>(fn: () => Promise<T>): Promise<T> {
      if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      else active++;
      try {
        return await fn();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else active--;
      }
    },
  };
}

const limits = new Map<string, ReturnType<typeof createLimit>>();

/**
 * The process-wide concurrency cap of one provider (registry `providers.<name>.concurrency`, or
 * `--provider-concurrency`): every model client of that provider and cap in this process shares it.
 * `Infinity` is no cap (an `openai-compatible` server: the run's `--concurrency` bounds it).
 */
export function providerLimit(provider: string, size: number) {
  const key = `${provider}#${size}`;
  let limit = limits.get(key);
  if (!limit) {
    limit = createLimit(size);
    limits.set(key, limit);
  }
  return limit;
}
