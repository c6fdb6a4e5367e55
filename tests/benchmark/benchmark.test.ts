import { BaseError as ViemBaseError } from "viem";
import { describe, expect, inject, test } from "vitest";
import { ChainError, ModelProviderError, SandboxError } from "../../src/errors.ts";
import { createBudget } from "../../src/models/budget.ts";
import { effectiveSampling } from "../../src/models/providerModel.ts";
import { resolveModelName } from "../../src/models/registry.ts";
import { isLocalModel, resolveModel } from "../../src/models/resolve.ts";
import { modelSettings } from "../../src/models/settings.ts";
import { costOf, estimateAttemptUsage } from "../../src/models/usage.ts";
import { type AtomicAttemptParameters, instanceFields, unevaluated } from "../../src/protocol/atomic.ts";
import { runAttempt } from "../../src/protocol/attempt.ts";
import { atomicPrompt, compositePrompt } from "../../src/protocol/prompt.ts";
import type { InstanceResult } from "../../src/results/types.ts";
import { readFinished, resumeKey, scriptedResponsesHash } from "../../src/run/resume.ts";
import { setWarmSandboxChildren } from "../../src/sandbox/executeModule.ts";
import { instantiate } from "../../src/tasks/instantiate.ts";
import { type LoadedTask, loadTasks } from "../../src/tasks/load.ts";
import { planInstances, selectTasks } from "../../src/tasks/select.ts";
import type { Instance } from "../../src/tasks/types.ts";
import { bootForkInstance } from "../../src/world/fork/boot.ts";
import { anvilRpc, createAnvilPool, type Lease } from "../../src/world/pool.ts";
import { loadWorld } from "../../src/world/world.ts";

// The benchmark as Vitest tests: each selected task spec × epoch is one dynamic test that leases
// an Anvil, runs one attempt and hands its result to the reporter through `meta`.
const options = inject("questbench");
// Fork mode: the world the global setup provisioned on the fork (its addresses), not world.json.
const fork = inject("fork");
const world = fork?.world ?? loadWorld();
const model = resolveModel(options.model, options);
const local = isLocalModel(options.model);
const resolved = local ? null : resolveModelName(options.model);
const sampling = resolved ? effectiveSampling(resolved, modelSettings(options).sampling) : null;
const tasks = selectTasks(loadTasks(), options);
const forkUrl = options.forkUrl;
// Children booted ahead of need (one per attempt in flight, at most 8): with a slow model the boots
// happen while the provider thinks, off every execution's critical path.
setWarmSandboxChildren(Math.min(8, Math.max(2, options.concurrency)));
const pool = createAnvilPool({
  size: options.concurrency,
  world,
  attach: inject("anvilUrls"),
  // A fork instance that must be replaced is forked and provisioned again (same world, or it throws).
  boot:
    fork && forkUrl
      ? async () => (await bootForkInstance({ url: forkUrl, fork: fork.manifest, expect: world })).handle
      : undefined,
});
const started = pool.start();

// Resume: a run into an `--out` that holds finished results keeps them (README "Real models"), for
// every model; a scripted:DIR model's key includes its response files, so an edited answer runs again.
const finished = options.fresh ? new Map<string, InstanceResult>() : readFinished(options.out);
const scriptedDir = options.model.startsWith("scripted:")
  ? options.model.slice("scripted:".length)
  : undefined;
const budget =
  options.budget !== undefined && resolved?.price
    ? createBudget({ limitUsd: options.budget, spentUsd: () => model.stats?.().spentUsd ?? 0 })
    : undefined;

// Killing the questbench process (kill -9) leaves this worker orphaned: stop rather than go on
// calling the provider for a run nobody records.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 250).unref();

/** The prior cost estimate of one attempt, from its opening prompt's size. */
function priorCost(task: LoadedTask, instance: Instance): number {
  const prompt =
    task.spec.split === "atomic"
      ? atomicPrompt(instance, task.spec.answer, world)
      : compositePrompt(instance, task.spec.answer, world, 1);
  const usage = estimateAttemptUsage({
    promptChars: prompt.reduce((n, m) => n + m.content.length, 0),
    split: task.spec.split,
    optimalSteps: task.spec.optimal_steps,
  });
  return costOf(usage, resolved?.price ?? null) ?? 0;
}

/**
 * The result of an attempt the provider never answered (`provider_error`: no score, left out of the
 * totals) or whose chain failed on every infrastructure retry (`infra_error`: scored 0 and counted,
 * so an attempt cannot shrink the run's maximum by breaking its chain); both are retried by the next run.
 */
function providerErrorResult(
  task: LoadedTask,
  instance: Instance,
  error: ModelProviderError | ChainError,
  durationMs: number,
  failureClass: "provider_error" | "infra_error" = "provider_error",
): InstanceResult {
  return {
    ...instanceFields(task, instance, model),
    score: 0,
    passed: false,
    checks: unevaluated(task, `not evaluated: ${failureClass.replace("_", " ")}`),
    failure: {
      class: failureClass,
      code: (error as { code?: string }).code,
      reason: error.shortMessage,
    },
    integrityViolations: [],
    prompt: [],
    response: "",
    durationMs,
    timings: {},
  };
}

/** Attempts run again on a fresh instance after an infrastructure fault, at most. */
const MAX_INFRA_RETRIES = 2;

/**
 * Harness-side faults of the chain, not the model's: Anvil gone or not answering (ChainError, a viem
 * transport error or receipt-wait timeout on the harness's own clients) or a sandbox that died
 * before running any model code (SandboxError). Model faults are results, never exceptions.
 */
const isInfraFault = (error: unknown) =>
  error instanceof ChainError || error instanceof SandboxError || error instanceof ViemBaseError;

/**
 * One attempt on a leased instance, retried on a fresh lease when the instance failed under it
 * (SPEC.md §3 "Pool": an infrastructure retry, never a model failure): the attempt threw an
 * infrastructure fault, or the instance fails its health check after the attempt (killed mid-run,
 * whatever the attempt then made of it). The released dead instance is replaced by the pool at its
 * next lease. The result records `infraRetries` when there were any.
 * @throws {ChainError} after {@link MAX_INFRA_RETRIES} retries; any other error of the attempt.
 */
async function attemptWithInfraRetry(p: Omit<AtomicAttemptParameters, "chain">): Promise<InstanceResult> {
  for (let retries = 0; ; retries++) {
    let lease: Lease | undefined;
    let fault: unknown;
    try {
      // A lease fails when its instance cannot be booted again: an infrastructure fault as well.
      lease = await pool.lease();
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
  }
}

/** {@link attemptWithInfraRetry} gave up: the chain failed under every attempt. */
class InfraRetriesExhausted extends ChainError {
  constructor(
    taskId: string,
    readonly retries: number,
    cause: unknown,
  ) {
    super(`${taskId}: the chain failed under ${retries + 1} attempts in a row.`, {
      cause,
      details: `Each attempt hit an infrastructure fault; the last: ${cause instanceof Error ? cause.message.split("\n")[0] : String(cause)}`,
    });
  }
}

describe.concurrent(`questbench · ${options.model} · seed ${options.seed}`, () => {
  for (const { task, epoch } of planInstances(tasks, options.epochs, options.shard)) {
    {
      const name = options.epochs > 1 ? `${task.spec.id} #${epoch}` : task.spec.id;
      test(name, async ({ task: testCase, skip }) => {
        const key = resumeKey({
          model: options.model,
          seed: options.seed,
          epoch,
          taskId: task.spec.id,
          taskSha256: task.spec.sha256,
          sampling,
          responsesSha256:
            scriptedDir === undefined ? undefined : scriptedResponsesHash(scriptedDir, task.spec.id),
        });
        // Fork mode: a task whose pre-state could not be provisioned is skipped, not scored 0.
        const unprovisioned = fork?.skipped[task.spec.id];
        if (unprovisioned) {
          testCase.meta.questbenchSkipped = { taskId: task.spec.id, epoch, reason: unprovisioned };
          skip(unprovisioned);
        }
        const previous = finished.get(key);
        if (previous) {
          testCase.meta.questbench = { ...previous, resumed: true };
          return;
        }
        await started;
        const instance = await instantiate(task.spec, { runSeed: options.seed, epoch, world });
        if (budget && !budget.admit(priorCost(task, instance))) {
          testCase.meta.questbenchNotStarted = { taskId: task.spec.id, epoch, reason: "budget" };
          skip(`--budget ${options.budget} USD would be passed`);
        }
        const t0 = performance.now();
        let result: InstanceResult | undefined;
        try {
          result = { ...(await attemptWithInfraRetry({ task, instance, model, world })), resumeKey: key };
        } catch (error) {
          if (error instanceof InfraRetriesExhausted) {
            testCase.meta.questbench = {
              ...providerErrorResult(
                task,
                instance,
                error,
                Math.round(performance.now() - t0),
                "infra_error",
              ),
              infraRetries: error.retries,
              resumeKey: key,
            };
            throw error;
          }
          if (!(error instanceof ModelProviderError)) throw error;
          const elapsed = Math.round(performance.now() - t0);
          testCase.meta.questbench = {
            ...providerErrorResult(task, instance, error, elapsed),
            resumeKey: key,
          };
          throw error;
        } finally {
          budget?.settle(result?.usage?.spentUsd ?? 0);
        }
        testCase.meta.questbench = result;
        // The gold responses are the benchmark's proof that every task is solvable (SPEC.md §7).
        if (options.model === "reference") expect(result.score, result.failure?.reason).toBe(100);
      });
    }
  }
});
