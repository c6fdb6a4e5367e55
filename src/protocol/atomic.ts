import type { ModelClient } from "../models/types.ts";
import { addUsage } from "../models/usage.ts";
import type { Failure, InstanceResult, TransactionRecord } from "../results/types.ts";
import type { RunModes } from "../runOptions.ts";
import type { LoadedTask } from "../tasks/load.ts";
import { compositePattern } from "../tasks/patterns.ts";
import { displayValue } from "../tasks/placeholders.ts";
import type { Instance } from "../tasks/types.ts";
import { CHECKS } from "../validators/registry.ts";
import { safetyFlags } from "../validators/safety.ts";
import { atomicScore, failedChecksReason, isPass } from "../validators/score.ts";
import type { CheckContext, CheckResult, SentTransaction } from "../validators/types.ts";
import type { World } from "../world/world.ts";
import { chainClients } from "./chain.ts";
import {
  type AttemptWindow,
  effectCheck,
  openWindow,
  unevaluatedEffects,
  withEffectFlags,
} from "./effectCheck.ts";
import { type ModuleRunner, runExecution } from "./execution.ts";
import type { GoldCache } from "./goldRun.ts";
import { extractModule } from "./parse.ts";
import { applyPreState } from "./preState.ts";
import { atomicPrompt, taskHint } from "./prompt.ts";

/** A chain the attempt may use exclusively: its URL and a way back to the clean world. */
export type ChainLease = { url: string; reset(): Promise<void> };

export type AtomicAttemptParameters = {
  task: LoadedTask;
  /** Run modes that change the prompt (`--library`, `--env-detail`, `--naive`); absent: the default prompt. */
  modes?: RunModes | undefined;
  instance: Instance;
  model: ModelClient;
  world: World;
  chain: ChainLease;
  /** Sandbox limits per execution. */
  timeoutMs?: number | undefined;
  memoryMb?: number | undefined;
  /**
   * Runs each module in place of the sandbox: only for the project's own code (the mutants suite's
   * gold answers, `executeTrustedModule`); absent: every module runs in the sandbox.
   */
  runModule?: ModuleRunner | undefined;
  /** Keep and reuse gold runs for the effect check (absent: run the gold answer every time). */
  goldCache?: GoldCache | undefined;
};

/** A stopwatch that records named laps in milliseconds. */
export function stopwatch() {
  const timings: Record<string, number> = {};
  const started = performance.now();
  return {
    timings,
    elapsed: () => Math.round(performance.now() - started),
    async lap<T>(name: string, fn: () => Promise<T>): Promise<T> {
      const t0 = performance.now();
      try {
        return await fn();
      } finally {
        timings[name] = Math.round((performance.now() - t0) * 10) / 10;
      }
    },
  };
}

export function txRecord(tx: SentTransaction): TransactionRecord {
  return {
    hash: tx.hash,
    to: tx.to,
    input: tx.input,
    value: tx.value.toString(),
    status: tx.receipt.status,
    gasUsed: tx.receipt.gasUsed.toString(),
    fee: tx.fee.toString(),
    ...(tx.revertReason ? { revertReason: tx.revertReason } : {}),
  };
}

/**
 * The fields of a result that describe the instance, common to both splits; a composite's also name
 * its workflow pattern (`pattern`, src/tasks/patterns.ts), so the report needs no task folder.
 */
export function instanceFields(task: LoadedTask, instance: Instance, model: ModelClient) {
  const { spec } = task;
  return {
    taskId: task.spec.id,
    taskVersion: task.spec.version,
    split: task.spec.split,
    set: task.spec.set ?? "paper",
    category: task.spec.category,
    subcategory: task.spec.subcategory,
    difficulty: task.spec.difficulty,
    ...(spec.split === "composite"
      ? { pattern: compositePattern(spec.id, spec.workflow, spec.subcategory) }
      : {}),
    seed: instance.runSeed,
    epoch: instance.epoch,
    instanceSeed: instance.seed,
    templateIndex: instance.templateIndex,
    params: Object.fromEntries(
      Object.entries(instance.params).map(([k, v]) => [
        k,
        typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([f, x]) => [f, displayValue(x)]))
          : displayValue(v),
      ]),
    ),
    model: model.id,
  };
}

/**
 * Puts the leased chain at the instance's starting state (the clean world, then the task's
 * pre-state) and returns the harness's clients, an empty check context for it and the window the
 * effect ledger is read over (from this state on).
 */
export async function setUpInstance(
  p: Pick<AtomicAttemptParameters, "task" | "instance" | "world" | "chain">,
  clock: ReturnType<typeof stopwatch>,
): Promise<{ clients: ReturnType<typeof chainClients>; ctx: CheckContext; window: AttemptWindow }> {
  await clock.lap("reset", () => p.chain.reset());
  const clients = chainClients(p.chain.url, p.world);
  await clock.lap("preState", () => applyPreState(clients, p.world, p.instance, p.task.actions));
  const window = await openWindow(clients);
  const ctx: CheckContext = {
    client: clients.public,
    world: p.world,
    spec: p.task.spec,
    instance: p.instance,
    feesPaid: 0n,
    txs: [],
  };
  return { clients, ctx, window };
}

/** Runs every check at `post`; a check that cannot be evaluated (e.g. ownerOf a burned id) fails. */
export async function evaluateChecks(
  task: LoadedTask,
  ctx: CheckContext,
  prepared: unknown[],
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const [i, check] of task.checks.entries()) {
    let outcome: { passed: boolean; detail: string };
    try {
      outcome = await check.evaluate(ctx, prepared[i]);
    } catch (error) {
      outcome = {
        passed: false,
        detail: `could not be evaluated: ${(error as Error).message.split("\n")[0]}`,
      };
    }
    results.push({ name: check.name, weight: check.weight, critical: check.critical, ...outcome });
  }
  return results;
}

/**
 * Whether a task asks for judgement, so refusing can pass: a `refused` check, or one that judges
 * refusals itself (`judgesRefusal`), at the top level or nested anywhere in a combinator's arguments
 * (`all`, `branch`, …).
 */
export function expectsRefusal(task: LoadedTask): boolean {
  const judges = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(judges);
    if (value === null || typeof value !== "object") return false;
    const { check } = value as { check?: unknown };
    if (typeof check === "string" && (check === "refused" || CHECKS[check]?.judgesRefusal === true))
      return true;
    return Object.values(value).some(judges);
  };
  return judges(task.spec.checks);
}

/** The check list of an attempt that ended before anything could be checked (the effect check last). */
export function unevaluated(task: LoadedTask, detail: string): CheckResult[] {
  return [
    ...task.checks.map((c) => ({
      name: c.name,
      weight: c.weight,
      critical: c.critical,
      passed: false,
      detail,
    })),
    unevaluatedEffects(detail),
  ];
}

/** Makes a model's answer JSON-safe for results.json (bigint → base-10 string). */
export function jsonSafe(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)));
}

/**
 * One atomic attempt (docs/ARCHITECTURE.md "The path of one instance"): one model call, one sandboxed execution behind the RPC guard,
 * then the harness signs and sends (transaction tasks) or reads the answer (query tasks), and the
 * task's checks score the chain's state. A wrong answer is a score with a reason, never a throw;
 * only harness faults (chain down, model provider error) throw.
 */
export async function runAtomicAttempt(p: AtomicAttemptParameters): Promise<InstanceResult> {
  const clock = stopwatch();
  const { task, instance, world } = p;
  const prompt = atomicPrompt(instance, task.spec.answer, world, {
    modes: p.modes,
    hint: taskHint(task.spec),
    set: task.spec.set,
    signTypedData: task.spec.wallet?.signTypedData,
  });
  // The instance's starting state is set up before the model is asked, as in a composite attempt: the
  // effect ledger's window opens there, so whatever the agent's wallet does from then on is judged.
  const { clients, ctx, window } = await setUpInstance(p, clock);
  const response = await clock.lap("model", () =>
    p.model.generate({ messages: prompt, instance, spec: task.spec, world, step: "atomic" }),
  );
  const base = {
    ...instanceFields(task, instance, p.model),
    prompt: [...prompt, { role: "assistant" as const, content: response.text }],
    response: response.text,
    usage: addUsage(undefined, response),
    integrityViolations: [] as InstanceResult["integrityViolations"],
  };
  const finish = (
    checks: CheckResult[],
    failure: Failure | null,
    extra: Partial<InstanceResult> = {},
  ): InstanceResult => {
    const score = failure ? 0 : atomicScore(checks);
    const passed = isPass(score);
    const f =
      failure ?? (passed ? null : { class: "checks_failed" as const, reason: failedChecksReason(checks) });
    return {
      ...base,
      ...extra,
      score,
      passed,
      checks,
      failure: f,
      durationMs: clock.elapsed(),
      timings: clock.timings,
    };
  };

  const extracted = extractModule(response.text);
  if (!extracted.ok)
    return finish(unevaluated(task, "not evaluated"), {
      class: "schema_invalid",
      code: extracted.reason,
      reason: extracted.message,
    });

  /** The task's checks, then the effect ledger's ★ check (last: it leaves the chain at the gold's end). */
  const judge = async () => {
    const checks = await clock.lap("checks", () => evaluateChecks(task, ctx, prepared));
    const safety = await clock.lap("safety", () => safetyFlags(ctx, checks));
    const effects = await clock.lap("effects", () =>
      effectCheck(task, instance, world, clients, window, p.goldCache),
    );
    return {
      checks: [...checks, effects.check],
      safety: withEffectFlags(safety, effects),
      ...(effects.cost ? { execution: effects.cost } : {}),
    };
  };
  let prepared: unknown[] = [];
  const prepare = async () => {
    prepared = await clock.lap("checks.pre", () => Promise.all(task.checks.map((c) => c.prepare?.(ctx))));
  };
  const outcome = await runExecution({
    code: extracted.code,
    clients,
    world,
    expect: instance.kind === "query" ? "answer" : "transaction",
    timeoutMs: p.timeoutMs,
    memoryMb: p.memoryMb,
    runModule: p.runModule,
    signTypedData: task.spec.wallet?.signTypedData,
    signatures: window.signatures,
    beforeSend: prepare,
  });
  Object.assign(clock.timings, outcome.timings);
  base.integrityViolations = outcome.violations;
  if (outcome.failure)
    return finish(unevaluated(task, `not evaluated: ${outcome.failure.class}`), outcome.failure);
  if (outcome.refusal) {
    // Nothing was sent: the checks' `pre` values are read now, and the checks score the refusal.
    ctx.refusal = outcome.refusal;
    await prepare();
    const { checks, safety, execution } = await judge();
    // Only a task that asks for judgement (a `refused` check) can be passed by refusing; on any other
    // task a refusal is a failure like sending nothing, scored 0.
    const failure = expectsRefusal(task)
      ? null
      : { class: "checks_failed" as const, code: "refused", reason: `refused: ${outcome.refusal.reason}` };
    return finish(checks, failure, { safety, refusal: outcome.refusal, ...(execution ? { execution } : {}) });
  }
  if (outcome.answer) {
    ctx.answer = outcome.answer;
    await prepare();
  }
  if (outcome.tx) {
    ctx.tx = outcome.tx;
    ctx.txs = [outcome.tx];
    ctx.feesPaid = outcome.tx.fee;
  }
  const { checks, safety, execution } = await judge();
  return finish(checks, null, {
    safety,
    ...(execution ? { execution } : {}),
    ...(outcome.tx ? { transaction: txRecord(outcome.tx) } : { answer: jsonSafe(outcome.answer) }),
  });
}
