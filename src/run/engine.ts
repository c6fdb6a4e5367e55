import path from "node:path";
import { type ChainError, ModelProviderError, TaskSpecError } from "../errors.ts";
import { createBudget } from "../models/budget.ts";
import { NoAnswerError } from "../models/errors.ts";
import { effectiveSampling } from "../models/providerModel.ts";
import { isLocalModel, resolveModel, resolveProviderModel } from "../models/resolve.ts";
import { missingScriptedAnswers } from "../models/scripted.ts";
import { modelSettings } from "../models/settings.ts";
import type { ModelClient, ModelRequest } from "../models/types.ts";
import { addUsage, costOf, type UsageRecord } from "../models/usage.ts";
import { instanceFields, unevaluated } from "../protocol/atomic.ts";
import { createEarlyStop } from "../results/earlyStop.ts";
import { readFinished } from "../results/folder.ts";
import type { InstanceOutcome } from "../results/outcome.ts";
import type { InstanceResult } from "../results/types.ts";
import { outDir, type RunOptions, runSplit } from "../runOptions.ts";
import { fillWarmSandboxChildren, setWarmSandboxChildren } from "../sandbox/executeModule.ts";
import { PROJECT_ROOT, type TaskEntry, taskIndex } from "../tasks/files.ts";
import { instantiate } from "../tasks/instantiate.ts";
import { type BrokenTask, type LoadedTask, loadTaskFile, type TaskSet } from "../tasks/load.ts";
import { planInstances, selectTasks } from "../tasks/select.ts";
import type { Instance } from "../tasks/types.ts";
import type { ForkContext } from "../world/fork/boot.ts";
import { bootForkInstance } from "../world/fork/boot.ts";
import { type AnvilPool, createAnvilPool } from "../world/pool.ts";
import { loadWorld, type World } from "../world/world.ts";
import { estimateInstanceUsage } from "./estimate.ts";
import { attemptWithInfraRetry, type ChainSource, InfraRetriesExhausted } from "./infraRetry.ts";
import { phase } from "./phases.ts";
import { indexedSelection } from "./plan.ts";
import { resumeKey, scoringCodeHash, scriptedResponsesHash } from "./resume.ts";

export type { ChainSource } from "./infraRetry.ts";

/**
 * A task pack's task (`--tasks-dir`) is a set of its own, `custom` (results.json `instances[].set`):
 * summed apart from the paper's and the hard split's totals, never into them (README "Write your own
 * task").
 */
function asCustom(task: LoadedTask, outcome: InstanceOutcome): InstanceOutcome {
  if (task.spec.pack === undefined || !("result" in outcome)) return outcome;
  return { ...outcome, result: { ...outcome.result, set: "custom" } } as InstanceOutcome;
}

/** One planned test: a task spec × epoch, named as Vitest shows it. */
export type PlannedInstance = { name: string; taskId: string; epoch: number };

/**
 * The result of an attempt the provider never answered (`provider_error`: no score, left out of the
 * totals) or whose chain failed on every infrastructure retry (`infra_error`: scored 0 and counted,
 * so an attempt cannot shrink the run's maximum by breaking its chain); both are retried by the next
 * run. Also the 0 of a `scripted:DIR` model without a response file (`no_answer`), kept like any score.
 * @param usage the provider calls the attempt paid for before it failed (so "paid by this run" counts them).
 */
export function unscoredResult(
  p: { task: LoadedTask; instance: Instance; model: ModelClient },
  error: ModelProviderError | ChainError,
  failureClass: "provider_error" | "infra_error" | "no_answer",
  durationMs: number,
  usage?: UsageRecord | undefined,
): InstanceResult {
  return {
    ...instanceFields(p.task, p.instance, p.model),
    score: 0,
    passed: false,
    checks: unevaluated(p.task, `not evaluated: ${failureClass.replace("_", " ")}`),
    failure: { class: failureClass, code: (error as { code?: string }).code, reason: error.shortMessage },
    integrityViolations: [],
    prompt: [],
    response: "",
    durationMs,
    timings: {},
    ...(usage ? { usage } : {}),
  };
}

/**
 * The run's model as one instance calls it: every response's tokens and cost are added up here too,
 * so an attempt that fails after paid calls still reports them, and `onRetry` reaches each request.
 */
function instanceModel(
  model: ModelClient,
  onRetry: ModelRequest["onRetry"],
): { model: ModelClient; usage(): UsageRecord | undefined } {
  let usage: UsageRecord | undefined;
  return {
    model: {
      ...model,
      async generate(request) {
        const response = await model.generate({ ...request, onRetry });
        usage = addUsage(usage, response);
        return response;
      },
    },
    usage: () => usage,
  };
}

/**
 * What a test hands the engine for one instance: where its provider retries and its infrastructure
 * retries (the attempt run again on a fresh chain, with the fault) are told, for the progress lines.
 */
export type InstanceHooks = { onRetry?: ModelRequest["onRetry"]; onInfraRetry?: (fault: string) => void };

/**
 * Killing the questbench process (kill -9) leaves Vitest's worker orphaned: it stops rather than go
 * on calling the provider for a run nobody records.
 */
function exitWhenOrphaned(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, 250).unref();
}

/**
 * Loads (and validates) only the given task folders, as loadTasks does for all of them: a malformed
 * spec lands in `broken` (selectTasks refuses a run that includes it). A run loads the tasks it
 * selected, not the whole bank: validating every spec was most of a one-task run's worker start.
 * (Cross-task checks — workflow ids, duplicate ids — are loadTasks' and tests/tasks.test.ts's.)
 */
function loadSelected(entries: readonly TaskEntry[]): TaskSet {
  const tasks: LoadedTask[] = [];
  const broken: BrokenTask[] = [];
  for (const e of entries) {
    try {
      tasks.push(loadTaskFile(path.resolve(PROJECT_ROOT, e.file), e.pack));
    } catch (error) {
      if (!(error instanceof TaskSpecError)) throw error;
      broken.push({ id: e.id, split: e.set === "hard" ? "hard" : e.split, error });
    }
  }
  return Object.assign(tasks, { broken });
}

/** A run's engine: what it plans, and how it runs one planned instance. */
export type Run = {
  options: RunOptions;
  world: World;
  model: ModelClient;
  planned: PlannedInstance[];
  /** The run's Anvil pool, taking over the instances the global setup booted (`urls`). */
  createPool(urls: string[]): AnvilPool;
  /**
   * Ends the pool, leaving every instance at the world snapshot: the next run of the same Vitest
   * session (watch mode) adopts them as they are instead of booting replacements.
   */
  closePool(pool: AnvilPool): Promise<void>;
  /** Runs (or resumes, skips, refuses) one planned instance; throws only on a harness bug. */
  runInstance(planned: PlannedInstance, chains: ChainSource, hooks?: InstanceHooks): Promise<InstanceOutcome>;
};

/**
 * Builds a run from its options: selects and plans the instances (`--split`, `--tasks`, `--epochs`,
 * `--shard`), resolves the model, reads the finished results to resume from `--out` (unless
 * `--fresh`), and sets up the `--budget`.
 * @param fork fork mode: the world the global setup provisioned on the fork, and the tasks to skip.
 */
export function createRun(options: RunOptions, fork: ForkContext | null): Run {
  const world = fork?.world ?? loadWorld();
  const model = resolveModel(options.model, options);
  const resolved = isLocalModel(options.model) ? null : resolveProviderModel(options.model, options);
  const sampling = resolved ? effectiveSampling(resolved, modelSettings(options).sampling) : null;
  // Only the tasks `--split`/`--tasks` name are loaded and validated, not the whole bank.
  const selected = selectTasks(loadSelected(indexedSelection(taskIndex(options.tasksDirs), options)), {
    ...options,
    split: runSplit(options),
  });
  const tasks = new Map(selected.map((t) => [t.spec.id, t]));
  const planned = planInstances([...tasks.values()], options.epochs, options.shard).map(
    ({ task, epoch }) => ({
      name: options.epochs > 1 ? `${task.spec.id} #${epoch}` : task.spec.id,
      taskId: task.spec.id,
      epoch,
    }),
  );
  // Resume (docs/RUNNING.md "Resume"): a run into an `--out` that holds finished results keeps those whose key
  // matches; the key covers the scoring code, so an edited validator or prompt scores again.
  const finished = options.fresh ? new Map<string, InstanceResult>() : readFinished(outDir(options));
  const codeHash = scoringCodeHash();
  // Gold runs of the effect check are kept beside the response cache and follow it: `--cache off`
  // runs each one live.
  const settings = modelSettings(options);
  const goldCache = settings.cache === "off" ? undefined : { dir: settings.cacheDir, codeSha256: codeHash };
  const scriptedDir = options.model.startsWith("scripted:")
    ? options.model.slice("scripted:".length)
    : undefined;
  // Tasks a scripted model has no files to start (the CLI named them before the run): scored as no answer.
  const noAnswer =
    scriptedDir === undefined
      ? new Map<string, string[]>()
      : missingScriptedAnswers(
          scriptedDir,
          selected.map((t) => ({ id: t.spec.id, split: t.spec.split })),
          options.modes?.protocol,
        );
  const budget =
    options.budget !== undefined && resolved?.price
      ? createBudget({ limitUsd: options.budget, spentUsd: () => model.stats?.().spentUsd ?? 0 })
      : undefined;
  // Children booted ahead of need (one per attempt in flight, at most 8, no more than instances): with
  // a slow model the boots happen while the provider thinks, off every execution's critical path.
  setWarmSandboxChildren(Math.min(8, Math.max(2, options.concurrency), planned.length));
  // Booted now, while the pool starts and the first chain is leased, not when the first answer arrives.
  fillWarmSandboxChildren();
  exitWhenOrphaned();
  phase("worker: run planned (tasks loaded, model resolved)");

  // --early-stop N (paper §5.3): N schema failures in a row end the run.
  const earlyStop = createEarlyStop(options.earlyStop ?? 0);

  /** The prior cost estimate of one attempt, from its opening prompt's size. */
  const priorCost = (task: LoadedTask, instance: Instance) =>
    costOf(estimateInstanceUsage(task, instance, world, options.modes), resolved?.price ?? null) ?? 0;

  async function runInstance(
    planned: PlannedInstance,
    chains: ChainSource,
    hooks: InstanceHooks = {},
  ): Promise<InstanceOutcome> {
    phase(`${planned.name}: start`);
    const outcome = asCustom(tasks.get(planned.taskId)!, await runPlanned(planned, chains, hooks));
    // Model answers only: a chain that failed under every retry says nothing of the model's interface.
    if (outcome.kind === "scored" || outcome.kind === "resumed") earlyStop.record(outcome.result);
    phase(`${planned.name}: ${outcome.kind}`);
    return outcome;
  }

  async function runPlanned(
    { taskId, epoch }: PlannedInstance,
    chains: ChainSource,
    hooks: InstanceHooks,
  ): Promise<InstanceOutcome> {
    const task = tasks.get(taskId)!;
    const unprovisioned = fork?.skipped[taskId];
    if (unprovisioned) return { kind: "skipped", skipped: { taskId, epoch, reason: unprovisioned } };
    const key = resumeKey({
      // The identity, not the name as typed: a local endpoint on another port resumes.
      model: model.id,
      seed: options.seed,
      epoch,
      taskId,
      taskSha256: task.spec.sha256,
      sampling,
      codeSha256: codeHash,
      responsesSha256: scriptedDir === undefined ? undefined : scriptedResponsesHash(scriptedDir, taskId),
      modes: options.modes,
      pack: task.spec.pack,
    });
    const previous = finished.get(key);
    if (previous) return { kind: "resumed", result: { ...previous, resumed: true } };
    const instance = await instantiate(task.spec, {
      runSeed: options.seed,
      epoch,
      world,
      nlLevel: options.modes?.nlLevel,
    });
    // The model's breaker tripped (N identical 4xx answers, src/models/breaker.ts): start nothing more.
    const stop = model.stopped?.();
    if (stop)
      return {
        kind: "provider_error",
        result: { ...unscoredResult({ task, instance, model }, stop, "provider_error", 0), resumeKey: key },
        message: stop.shortMessage,
      };
    if (earlyStop.stopped())
      return {
        kind: "not_started",
        notStarted: { taskId, epoch, reason: "early_stop" },
        message: `--early-stop ${earlyStop.limit}: ${earlyStop.limit} schema failures in a row`,
      };
    if (budget && !budget.admit(priorCost(task, instance)))
      return {
        kind: "not_started",
        notStarted: { taskId, epoch, reason: "budget" },
        message: `--budget ${options.budget} USD would be passed`,
      };
    // A scripted model without the files to start the task (named before the run): no answer, 0.
    const absent = noAnswer.get(taskId);
    if (absent)
      return {
        kind: "scored",
        result: {
          ...unscoredResult(
            { task, instance, model },
            new NoAnswerError(`${options.model} has no response file ${absent.join(", ")}`),
            "no_answer",
            0,
          ),
          resumeKey: key,
        },
      };
    const t0 = performance.now();
    const calls = instanceModel(model, hooks.onRetry);
    let result: InstanceResult | undefined;
    try {
      result = await attemptWithInfraRetry(
        chains,
        { task, instance, model: calls.model, world, modes: options.modes, goldCache },
        hooks.onInfraRetry,
      );
      return { kind: "scored", result: { ...result, resumeKey: key } };
    } catch (error) {
      const elapsed = Math.round(performance.now() - t0);
      const p = { task, instance, model };
      if (error instanceof InfraRetriesExhausted)
        return {
          kind: "infra_error",
          result: {
            ...unscoredResult(p, error, "infra_error", elapsed, calls.usage()),
            infraRetries: error.retries,
            resumeKey: key,
          },
          message: error.message,
        };
      // A scripted model without the file for a later round: the model gave no answer (scored 0).
      if (error instanceof NoAnswerError)
        return {
          kind: "scored",
          result: { ...unscoredResult(p, error, "no_answer", elapsed, calls.usage()), resumeKey: key },
        };
      if (error instanceof ModelProviderError)
        return {
          kind: "provider_error",
          result: { ...unscoredResult(p, error, "provider_error", elapsed, calls.usage()), resumeKey: key },
          message: error.message,
        };
      throw error;
    } finally {
      budget?.settle(result?.usage?.spentUsd ?? calls.usage()?.spentUsd ?? 0);
    }
  }

  return {
    options,
    world,
    model,
    planned,
    createPool: (urls) =>
      createAnvilPool({
        size: options.concurrency,
        world,
        attach: urls,
        // A fork instance that must be replaced is forked and provisioned again (same world, or it throws).
        boot:
          fork && options.forkUrl
            ? async () =>
                (await bootForkInstance({ url: options.forkUrl!, fork: fork.manifest, expect: world })).handle
            : undefined,
      }),
    closePool: async (pool) => {
      // A lease reverts a used instance to the snapshot before handing it out.
      await Promise.all(pool.urls.map(() => pool.lease())).catch(() => undefined);
      await pool.stop();
    },
    runInstance,
  };
}
