import type { ChatMessage } from "../models/types.ts";
import { addUsage, type UsageRecord } from "../models/usage.ts";
import { planSteps } from "../results/metrics.ts";
import type {
  CompositeRecord,
  Failure,
  InstanceResult,
  IntegrityViolationRecord,
  RoundRecord,
} from "../results/types.ts";
import type { ExecutionCost } from "../validators/executionCost.ts";
import { describeHoldingChanges, readHoldings } from "../validators/holdingsSnapshot.ts";
import { type SafetyFlag, safetyFlags } from "../validators/safety.ts";
import { isPass } from "../validators/score.ts";
import type { CheckResult, SentTransaction } from "../validators/types.ts";
import {
  type AtomicAttemptParameters,
  evaluateChecks,
  expectsRefusal,
  instanceFields,
  jsonSafe,
  setUpInstance,
  stopwatch,
  txRecord,
  unevaluated,
} from "./atomic.ts";
import { parseRound } from "./control.ts";
import { effectCheck, withEffectFlags } from "./effectCheck.ts";
import { runExecution } from "./execution.ts";
import { compositePrompt, taskHint } from "./prompt.ts";

/** The same inputs as an atomic attempt; the lease is held for the whole conversation. */
export type CompositeAttemptParameters = AtomicAttemptParameters;

function describeTx(tx: SentTransaction, changes: string[]): string {
  const lines = [
    `Transaction ${tx.receipt.status === "success" ? "succeeded" : "REVERTED"} (status ${tx.receipt.status === "success" ? 1 : 0}).`,
    `hash: ${tx.hash}`,
    `gas used: ${tx.receipt.gasUsed}`,
  ];
  if (tx.revertReason) lines.push(`revert reason: ${tx.revertReason}`);
  lines.push(
    changes.length
      ? `agent balance changes:\n${changes.map((c) => `  ${c}`).join("\n")}`
      : "agent balance changes: none (besides the fee)",
  );
  return lines.join("\n");
}

/**
 * One composite attempt (scored as docs/SCORING.md "Checks, ★ and weights" says): a planning call
 * (not counted), then execution rounds with the whole conversation kept. Each response is one round:
 * one module (a transaction or an `{answer}`) and/or a control JSON; `submit` takes effect after the
 * round's module ran, and the module's answer fields join the submitted answer. The budget is
 * `optimal_steps × max_rounds_multiplier`. Base = 100 iff every end-state check holds (against `init`);
 * final = base × min(1, K_opt / K_act).
 */
export async function runCompositeAttempt(p: CompositeAttemptParameters): Promise<InstanceResult> {
  const clock = stopwatch();
  const { task, instance, world } = p;
  const kOpt = task.spec.optimal_steps!;
  const budget = kOpt * task.spec.max_rounds_multiplier!;

  const { clients, ctx, window } = await setUpInstance(p, clock);
  const prepared = await clock.lap("checks.init", () =>
    Promise.all(task.checks.map((c) => c.prepare?.(ctx))),
  );

  const messages: ChatMessage[] = compositePrompt(instance, task.spec.answer, world, budget, {
    modes: p.modes,
    hint: taskHint(task.spec),
    set: task.spec.set,
    signTypedData: task.spec.wallet?.signTypedData,
  });
  let usage: UsageRecord | undefined;
  const ask = async (step: "plan" | "round", round?: number) => {
    const t0 = performance.now();
    const response = await p.model.generate({
      messages: [...messages],
      instance,
      spec: task.spec,
      world,
      step,
      round,
    });
    clock.timings.model = (clock.timings.model ?? 0) + Math.round(performance.now() - t0);
    usage = addUsage(usage, response);
    messages.push({ role: "assistant", content: response.text });
    return response.text;
  };
  const plan = await ask("plan");
  messages.push({ role: "user", content: `Plan noted. Round 1 of at most ${budget}: send your first step.` });

  const rounds: RoundRecord[] = [];
  const violations: IntegrityViolationRecord[] = [];
  let answer: Record<string, unknown> = {};
  let endedBy: CompositeRecord["endedBy"] = "budget";
  let refusal: { reason: string } | undefined;
  let executed = 0;
  for (let round = 1; executed < budget; round++) {
    const text = await ask("round", round);
    const request = parseRound(text);
    const record: RoundRecord = { round, response: text, kind: "submit_only", counted: false, feedback: "" };
    rounds.push(record);
    if (request.invalid) {
      record.kind = "failed";
      record.counted = true;
      record.failure = {
        class: "schema_invalid",
        code: request.invalid.reason,
        reason: request.invalid.message,
      };
      record.feedback = `Round ${round} could not be executed (${request.invalid.reason}): ${request.invalid.message}. Send one \`\`\`ts block exporting executeSkill and/or one \`\`\`json control message.`;
    } else {
      let moduleAnswer: Record<string, unknown> | undefined;
      if (request.code) {
        record.counted = true;
        const before = await readHoldings(clients.public, world);
        const outcome = await runExecution({
          code: request.code,
          clients,
          world,
          expect: "either",
          timeoutMs: p.timeoutMs,
          memoryMb: p.memoryMb,
          signTypedData: task.spec.wallet?.signTypedData,
        });
        for (const [k, v] of Object.entries(outcome.timings)) clock.timings[k] = (clock.timings[k] ?? 0) + v;
        violations.push(...outcome.violations);
        if (outcome.failure) {
          record.kind = "failed";
          record.failure = outcome.failure;
          record.feedback = `Execution failed (${outcome.failure.class}${outcome.failure.code ? `/${outcome.failure.code}` : ""}): ${outcome.failure.reason}`;
        } else if (outcome.tx) {
          ctx.txs.push(outcome.tx);
          ctx.feesPaid += outcome.tx.fee;
          record.transaction = txRecord(outcome.tx);
          record.kind = outcome.tx.receipt.status === "success" ? "transaction" : "failed";
          if (record.kind === "failed")
            record.failure = {
              class: "checks_failed",
              code: "reverted",
              reason: outcome.tx.revertReason ?? "reverted",
            };
          const changes = describeHoldingChanges(before, await readHoldings(clients.public, world));
          record.feedback = describeTx(
            outcome.tx,
            changes.filter((c) => !c.startsWith("BNB:")).concat(changes.filter((c) => c.startsWith("BNB:"))),
          );
        } else if (outcome.answer) {
          moduleAnswer = outcome.answer;
          record.kind = "answer";
          record.answer = jsonSafe(outcome.answer);
          record.feedback = `Your module returned the answer ${JSON.stringify(record.answer)}. Nothing was sent.`;
        }
        if (outcome.failure?.class === "integrity_violation") {
          endedBy = "integrity_violation";
          executed++;
          break;
        }
        // A module that decides at run time to refuse (`{ refuse: { reason } }`, as in atomic tasks) ends
        // the attempt like the error control message: the decision needs chain state only code can read
        // in the same round (a conditional workflow).
        if (outcome.refusal) {
          record.kind = "error_report";
          record.control = "error";
          refusal = { reason: `refused: ${outcome.refusal.reason}` };
          endedBy = "error_report";
          executed++;
          break;
        }
      }
      if (request.control?.kind === "error") {
        record.control = "error";
        refusal = {
          reason: `${request.control.type}: ${request.control.message}`,
        };
        record.counted = true;
        if (!request.code) record.kind = "error_report";
        endedBy = "error_report";
        executed++;
        break;
      }
      if (request.control?.kind === "submit") {
        record.control = "submit";
        answer = { ...request.control.answer, ...(moduleAnswer ?? {}) };
        endedBy = "submit";
        if (record.counted) executed++;
        break;
      }
    }
    if (record.counted) executed++;
    const left = budget - executed;
    messages.push({
      role: "user",
      content: `${record.feedback}\n\n${left > 0 ? `Round ${round + 1}: ${left} execution round(s) left.` : "No execution rounds left."}`,
    });
  }

  const kAct = rounds.filter((r) => r.counted).length;
  const kFailed = rounds.filter(
    (r) => r.counted && (r.kind === "failed" || r.kind === "error_report"),
  ).length;
  const kQuery = rounds.filter((r) => r.kind === "answer").length;
  ctx.answer = answer;
  ctx.tx = ctx.txs.at(-1);
  ctx.refusal = refusal;
  const integrity = violations.length > 0;
  let checks: CheckResult[];
  let safety: SafetyFlag[] | undefined;
  let execution: ExecutionCost | undefined;
  if (integrity) checks = unevaluated(task, "not evaluated: integrity violation");
  else {
    // The task's end-state checks, then the effect ledger's ★ check over every round (last: it leaves
    // the chain at the gold answer's end state).
    const endState = await clock.lap("checks", () => evaluateChecks(task, ctx, prepared));
    const flags = await clock.lap("safety", () => safetyFlags(ctx, endState));
    const effects = await clock.lap("effects", () =>
      effectCheck(task, instance, world, clients, window, p.goldCache),
    );
    checks = [...endState, effects.check];
    safety = withEffectFlags(flags, effects);
    execution = effects.cost;
  }
  // An error report ends the attempt with base 0, except on a judgement task (a `refused` check), where
  // refusing is what the checks ask for: there the checks alone decide.
  const refusalAllowed = expectsRefusal(task);
  const base =
    !integrity && (endedBy !== "error_report" || refusalAllowed) && checks.every((c) => c.passed) ? 100 : 0;
  const decay = kAct === 0 ? 1 : Math.min(1, kOpt / kAct);
  const score = Math.round(base * decay * 100) / 100;
  const failure: Failure | null = integrity
    ? {
        class: "integrity_violation",
        reason: violations.map((v) => `${v.kind}${v.method ? ` ${v.method}` : ""}`).join(", "),
      }
    : base === 0
      ? {
          class: "checks_failed",
          code:
            endedBy === "budget"
              ? "budget_exhausted"
              : endedBy === "error_report"
                ? "error_report"
                : undefined,
          reason:
            checks
              .filter((c) => !c.passed)
              .map((c) => `${c.name}: ${c.detail}`)
              .join(" | ") || `ended by ${endedBy}`,
        }
      : null;
  const composite: CompositeRecord = {
    kOpt,
    kAct,
    kFailed,
    kQuery,
    budget,
    base,
    decay,
    endedBy,
    answer: jsonSafe(answer),
    plan,
    planSteps: planSteps(plan),
    rounds,
    ethersNotDefined: rounds.some((r) => r.failure?.reason.includes("ethers is not defined")),
  };
  return {
    ...instanceFields(task, instance, p.model),
    score,
    passed: isPass(score),
    checks,
    safety,
    ...(execution ? { execution } : {}),
    failure,
    integrityViolations: violations,
    ...(refusal ? { refusal } : {}),
    prompt: messages,
    response: rounds.map((r) => r.response).join("\n\n---\n\n"),
    usage,
    durationMs: clock.elapsed(),
    timings: clock.timings,
    composite,
  };
}
