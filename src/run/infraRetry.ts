/**
 * The infrastructure retry (docs/SECURITY.md "Faults"): an attempt whose chain failed under it runs
 * again on a fresh instance, at most {@link MAX_INFRA_RETRIES} times; a model's faults are results and
 * never retried here. The run engine (src/run/engine.ts) runs every attempt through it.
 */
import { BaseError as ViemBaseError } from "viem";
import { ChainError, SandboxError } from "../errors.ts";
import type { AtomicAttemptParameters } from "../protocol/atomic.ts";
import { runAttempt } from "../protocol/attempt.ts";
import type { InstanceResult } from "../results/types.ts";
import { anvilRpc, type Lease } from "../world/pool.ts";

/** Leases chains for one instance; the test's fixture releases whatever is still held when it ends. */
export type ChainSource = { lease(): Promise<Lease> };

/** Attempts run again on a fresh instance after an infrastructure fault, at most. */
export const MAX_INFRA_RETRIES = 2;

/** {@link attemptWithInfraRetry} gave up: the chain failed under every attempt. */
export class InfraRetriesExhausted extends ChainError {
  constructor(
    taskId: string,
    readonly retries: number,
    cause: unknown,
  ) {
    super(`${taskId}: the chain failed under ${retries + 1} attempts in a row.`, {
      cause,
      details: `Each attempt hit an infrastructure fault; the last: ${faultLine(cause)}`,
    });
  }
}

/**
 * Harness-side faults of the chain, not the model's: Anvil gone or not answering (ChainError, a viem
 * transport error or receipt-wait timeout on the harness's own clients) or a sandbox that died
 * before running any model code (SandboxError). Model faults are results, never exceptions.
 */
const isInfraFault = (error: unknown) =>
  error instanceof ChainError || error instanceof SandboxError || error instanceof ViemBaseError;

/**
 * One attempt on a leased instance, retried on a fresh lease when the instance failed under it
 * (docs/SECURITY.md "Faults": an infrastructure retry, never a model failure): the attempt threw an
 * infrastructure fault, or the instance fails its health check after the attempt (killed mid-run,
 * whatever the attempt then made of it). The released dead instance is replaced by the pool at its
 * next lease. The result records `infraRetries` when there were any.
 * @param onRetry told each fault that sends the attempt to a fresh instance (one line: progress shows it).
 * @throws {InfraRetriesExhausted} after {@link MAX_INFRA_RETRIES} retries; any other error of the attempt.
 */
export async function attemptWithInfraRetry(
  chains: ChainSource,
  p: Omit<AtomicAttemptParameters, "chain">,
  onRetry?: (fault: string) => void,
): Promise<InstanceResult> {
  for (let retries = 0; ; retries++) {
    let lease: Lease | undefined;
    let fault: unknown;
    try {
      // A lease fails when its instance cannot be booted again: an infrastructure fault as well.
      lease = await chains.lease();
      let result: InstanceResult | undefined;
      try {
        result = await runAttempt({ ...p, chain: lease });
      } catch (error) {
        if (!isInfraFault(error)) throw error;
        fault = error;
      }
      const alive = await anvilRpc(lease.url, "eth_chainId", [], 2_000).then(
        () => true,
        (error) => {
          fault ??= error;
          return false;
        },
      );
      if (result && alive) return retries > 0 ? { ...result, infraRetries: retries } : result;
    } catch (error) {
      if (!isInfraFault(error)) throw error;
      fault = error;
    } finally {
      lease?.release();
    }
    if (retries >= MAX_INFRA_RETRIES) throw new InfraRetriesExhausted(p.task.spec.id, retries, fault);
    onRetry?.(faultLine(fault));
  }
}

/** A fault as one line: a harness error's short message, else the first line of its message. */
const faultLine = (fault: unknown) =>
  (fault as { shortMessage?: string }).shortMessage ??
  (fault instanceof Error ? fault.message : String(fault)).split("\n")[0]!;
