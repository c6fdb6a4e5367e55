import type { ModelClient } from "../models/types.ts";
import type {
  Failure,
  InstanceResult,
  IntegrityViolationRecord,
  TransactionRecord,
} from "../reporting/types.ts";
import { executeModule } from "../sandbox/executeModule.ts";
import { startRpcGuard } from "../sandbox/rpcGuard.ts";
import type { LoadedTask } from "../tasks/load.ts";
import { displayValue } from "../tasks/placeholders.ts";
import type { Instance } from "../tasks/types.ts";
import { atomicScore, isPass } from "../validators/score.ts";
import type { CheckContext, CheckResult, SentTransaction } from "../validators/types.ts";
import type { World } from "../world/world.ts";
import { chainClients, signAndSend } from "./chain.ts";
import { extractModule } from "./parse.ts";
import { applyPreState } from "./preState.ts";
import { atomicPrompt } from "./prompt.ts";
import { normaliseTransaction } from "./transaction.ts";

/** A chain the attempt may use exclusively: its URL and a way back to the clean world. */
export type ChainLease = { url: string; reset(): Promise<void> };

export type AtomicAttemptParameters = {
  task: LoadedTask;
  instance: Instance;
  model: ModelClient;
  world: World;
  chain: ChainLease;
  /** Sandbox limits per execution. */
  timeoutMs?: number;
  memoryMb?: number;
};

const SANDBOX_FAILURE: Record<string, Failure["class"]> = {
  transpile_error: "compile_error",
  no_export: "schema_invalid",
  signature_mismatch: "schema_invalid",
  runtime_error: "runtime_error",
  process_exit: "runtime_error",
  timeout: "timeout",
  memory_limit: "resource_limit",
  output_too_large: "resource_limit",
  output_invalid: "schema_invalid",
  permission_denied: "sandbox_violation",
};

/** Records one checks' outcome for every check when nothing could be evaluated. */
function unevaluated(task: LoadedTask, detail: string): CheckResult[] {
  return task.checks.map((c) => ({
    name: c.name,
    weight: c.weight,
    critical: c.critical,
    passed: false,
    detail,
  }));
}

function txRecord(tx: SentTransaction): TransactionRecord {
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
 * One atomic attempt (SPEC.md §6): one model call, one sandboxed execution behind the RPC guard,
 * then the harness signs and sends (transaction tasks) or reads the answer (query tasks), and the
 * task's checks score the chain's state. A wrong answer is a score with a reason, never a throw;
 * only harness faults (chain down, model provider error) throw.
 */
export async function runAtomicAttempt(p: AtomicAttemptParameters): Promise<InstanceResult> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  const lap = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      timings[name] = Math.round((performance.now() - t0) * 10) / 10;
    }
  };
  const { task, instance, world } = p;
  const prompt = atomicPrompt(instance, task.spec.answer, world);
  const response = await lap("model", () =>
    p.model.generate({ messages: prompt, instance, spec: task.spec, world, step: "atomic" }),
  );
  const violations: IntegrityViolationRecord[] = [];
  const base = {
    taskId: task.spec.id,
    taskVersion: task.spec.version,
    split: task.spec.split,
    category: task.spec.category,
    subcategory: task.spec.subcategory,
    difficulty: task.spec.difficulty,
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
    model: p.model.id,
    prompt: [...prompt, { role: "assistant" as const, content: response.text }],
    response: response.text,
    integrityViolations: violations,
  };
  const finish = (
    checks: CheckResult[],
    failure: Failure | null,
    extra: Partial<InstanceResult> = {},
  ): InstanceResult => {
    const score = failure && failure.class !== "checks_failed" ? 0 : atomicScore(checks);
    const passed = isPass(score);
    const f =
      failure ??
      (passed
        ? null
        : {
            class: "checks_failed" as const,
            reason: checks
              .filter((c) => !c.passed)
              .map((c) => `${c.name}: ${c.detail}`)
              .join(" | "),
          });
    return {
      ...base,
      ...extra,
      score,
      passed,
      checks,
      failure: f,
      durationMs: Math.round(performance.now() - started),
      timings,
    };
  };

  const extracted = extractModule(response.text);
  if (!extracted.ok)
    return finish(unevaluated(task, "not evaluated"), {
      class: "schema_invalid",
      code: extracted.reason,
      reason: extracted.message,
    });

  await lap("reset", () => p.chain.reset());
  const clients = chainClients(p.chain.url, world);
  await lap("preState", () => applyPreState(clients, world, instance, task.actions));

  const guard = await startRpcGuard({ upstreamUrl: p.chain.url });
  let execution: Awaited<ReturnType<typeof executeModule>>;
  try {
    execution = await lap("execute", () =>
      executeModule({
        source: extracted.code,
        providerUrl: guard.url,
        agentAddress: world.agent.address,
        deployedContracts: { ...world.contracts },
        timeoutMs: p.timeoutMs,
        memoryMb: p.memoryMb,
      }),
    );
  } finally {
    await guard.close();
  }
  for (const v of guard.violations) violations.push({ ...v });
  Object.assign(
    timings,
    Object.fromEntries(
      Object.entries(execution.timings ?? {}).map(([k, v]) => [`sandbox.${k}`, v as number]),
    ),
  );
  if (violations.length > 0)
    return finish(unevaluated(task, "not evaluated: integrity violation"), {
      class: "integrity_violation",
      reason: violations.map((v) => `${v.kind}${v.method ? ` ${v.method}` : ""}`).join(", "),
    });
  if (!execution.ok) {
    const cls = SANDBOX_FAILURE[execution.error.code] ?? "runtime_error";
    return finish(unevaluated(task, "not evaluated"), {
      class: cls,
      code: execution.error.code,
      reason: execution.error.message,
    });
  }

  const ctx: CheckContext = { client: clients.public, world, spec: task.spec, instance, feesPaid: 0n };
  let extra: Partial<InstanceResult> = {};
  if (instance.kind === "query") {
    const value = execution.value as { answer?: unknown } | null;
    if (
      !value ||
      typeof value !== "object" ||
      Array.isArray(value) ||
      !value.answer ||
      typeof value.answer !== "object" ||
      Array.isArray(value.answer)
    )
      return finish(unevaluated(task, "not evaluated"), {
        class: "schema_invalid",
        code: "not_answer_object",
        reason: "a query task must return { answer: { ... } }",
      });
    ctx.answer = value.answer as Record<string, unknown>;
    extra = { answer: jsonSafe(value.answer) };
  } else {
    const normalised = normaliseTransaction(execution.value);
    if (!normalised.ok)
      return finish(unevaluated(task, "not evaluated"), {
        class: "schema_invalid",
        code: normalised.reason,
        reason: normalised.message,
      });
    const prepared = await lap("checks.pre", () => Promise.all(task.checks.map((c) => c.prepare?.(ctx))));
    const sent = await lap("send", () => signAndSend(clients, normalised.tx));
    if ("rejected" in sent)
      return finish(unevaluated(task, "not evaluated: the node rejected the transaction"), {
        class: "send_rejected",
        reason: sent.rejected,
      });
    ctx.tx = sent;
    ctx.feesPaid = sent.fee;
    extra = { transaction: txRecord(sent) };
    const checks = await lap("checks", () => evaluateChecks(task, ctx, prepared));
    return finish(checks, null, extra);
  }
  const prepared = await lap("checks.pre", () => Promise.all(task.checks.map((c) => c.prepare?.(ctx))));
  const checks = await lap("checks", () => evaluateChecks(task, ctx, prepared));
  return finish(checks, null, extra);
}

async function evaluateChecks(
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
      // A read that fails because of what the model did (e.g. ownerOf of a burned id) fails the check.
      outcome = {
        passed: false,
        detail: `could not be evaluated: ${(error as Error).message.split("\n")[0]}`,
      };
    }
    results.push({ name: check.name, weight: check.weight, critical: check.critical, ...outcome });
  }
  return results;
}

/** Makes a model's answer JSON-safe for results.json (bigint → base-10 string). */
function jsonSafe(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)));
}
