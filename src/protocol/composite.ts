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
import { describeHoldingChanges, readHoldings } from "../validators/checks/holdingsSnapshot.ts";
import type { ExecutionCost } from "../validators/effects/executionCost.ts";
import { type SafetyFlag, safetyFlags } from "../validators/safety.ts";
import {
  compositeBase,
  compositeFailureCode,
  compositeScore,
  failedChecksReason,
  isPass,
  OUR_ZERO_ROUNDS_DECAY,
  stepDecay,
} from "../validators/score.ts";
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
import { type ExecutionOutcome, runExecution } from "./execution.ts";
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

/** What a composite attempt has set up before its first model call (src/protocol/atomic.ts `setUpInstance`). */
export type CompositeSetUp = Awaited<ReturnType<typeof setUpInstance>> & {
  clock: ReturnType<typeof stopwatch>;
  /** The checks' values read at `init`, after the pre-state. */
  prepared: unknown[];
};

/** The instance's starting state and the checks' `init` reads, shared by both composite protocols. */
export async function setUpComposite(p: CompositeAttemptParameters): Promise<CompositeSetUp> {
  const clock = stopwatch();
  const setUp = await setUpInstance(p, clock);
  const prepared = await clock.lap("checks.init", () =>
    Promise.all(p.task.checks.map((c) => c.prepare?.(setUp.ctx))),
  );
  return { ...setUp, clock, prepared };
}

/**
 * Runs one round's module in the sandbox (docs/SECURITY.md) and records what it did on `record` (and a
 * transaction on `ctx`): a transaction (`transaction`, or `failed` when it reverted), an answer
 * (`answer`), or a failure. Integrity violations are appended to `violations`; refusals and
 * violations are left to the protocol.
 */
export async function executeRoundModule(
  p: CompositeAttemptParameters,
  s: Pick<CompositeSetUp, "clients" | "ctx" | "clock" | "window">,
  code: string,
  record: RoundRecord,
  violations: IntegrityViolationRecord[],
): Promise<ExecutionOutcome> {
  const outcome = await runExecution({
    code,
    clients: s.clients,
    world: p.world,
    expect: "either",
    timeoutMs: p.timeoutMs,
    memoryMb: p.memoryMb,
    runModule: p.runModule,
    signTypedData: p.task.spec.wallet?.signTypedData,
    signatures: s.window.signatures,
  });
  for (const [k, v] of Object.entries(outcome.timings)) s.clock.timings[k] = (s.clock.timings[k] ?? 0) + v;
  violations.push(...outcome.violations);
  if (outcome.failure) {
    record.kind = "failed";
    record.failure = outcome.failure;
  } else if (outcome.tx) {
    s.ctx.txs.push(outcome.tx);
    s.ctx.feesPaid += outcome.tx.fee;
    record.transaction = txRecord(outcome.tx);
    record.kind = outcome.tx.receipt.status === "success" ? "transaction" : "failed";
    if (record.kind === "failed")
      record.failure = {
        class: "checks_failed",
        code: "reverted",
        reason: outcome.tx.revertReason ?? "reverted",
      };
  } else if (outcome.answer) {
    record.kind = "answer";
    record.answer = jsonSafe(outcome.answer);
  }
  return outcome;
}

/** How a composite conversation ended, as {@link judgeComposite} scores it. */
export type CompositeConversation = {
  rounds: RoundRecord[];
  violations: IntegrityViolationRecord[];
  /** The submitted answer (the checks' `ctx.answer`). */
  answer: Record<string, unknown>;
  endedBy: CompositeRecord["endedBy"];
  refusal?: { reason: string } | undefined;
  plan: string;
  planSteps: string[] | null;
  /** What the model was sent and answered, in order (results.json `prompt`). */
  messages: ChatMessage[];
  usage: UsageRecord | undefined;
  kOpt: number;
  budget: number;
  /**
   * The decay when no round counted (K_act = 0): `OUR_ZERO_ROUNDS_DECAY` (1: nothing ran, nothing
   * decays; the checks decide) or `PAPER_ZERO_ROUNDS_DECAY` (0, the paper's implementation), in
   * src/validators/score.ts.
   */
  zeroRoundsDecay: 0 | 1;
  /** Extra fields of the composite record (the paper protocol's plan as parsed). */
  record?: Partial<CompositeRecord> | undefined;
  /**
   * `--protocol tools`: signatures are steps (K_act counts them), so K_opt adds the EIP-712
   * signatures the gold answer made on the instance (docs/SCORING.md "Tool-using agents").
   */
  goldSignaturesAreSteps?: boolean | undefined;
};

/**
 * Scores a finished conversation, whichever protocol led it: the task's end-state checks at `final`
 * (against `init`), then the effect ledger's ★ check over every round (last: it leaves the chain at
 * the gold answer's end state). Base = 100 iff every check holds and the attempt did not end by an
 * error report (unless refusing is what the task's checks ask for) or an integrity violation;
 * final = base × min(1, K_opt / K_act), rounded to two decimals (the rules: src/validators/score.ts,
 * docs/SCORING.md "Composite tasks").
 */
export async function judgeComposite(
  p: CompositeAttemptParameters,
  s: CompositeSetUp,
  c: CompositeConversation,
): Promise<InstanceResult> {
  const { task, instance, world } = p;
  const { clock, ctx } = s;
  const { rounds, violations, endedBy, refusal } = c;
  const kAct = rounds.filter((r) => r.counted).length;
  const kFailed = rounds.filter(
    (r) => r.counted && (r.kind === "failed" || r.kind === "error_report"),
  ).length;
  const kQuery = rounds.filter((r) => r.kind === "answer").length;
  ctx.answer = c.answer;
  ctx.tx = ctx.txs.at(-1);
  ctx.refusal = refusal;
  const integrity = violations.length > 0;
  let checks: CheckResult[];
  let safety: SafetyFlag[] | undefined;
  let execution: ExecutionCost | undefined;
  let kOpt = c.kOpt;
  if (integrity) checks = unevaluated(task, "not evaluated: integrity violation");
  else {
    const endState = await clock.lap("checks", () => evaluateChecks(task, ctx, s.prepared));
    const flags = await clock.lap("safety", () => safetyFlags(ctx, endState));
    const effects = await clock.lap("effects", () =>
      effectCheck(task, instance, world, s.clients, s.window, p.goldCache),
    );
    checks = [...endState, effects.check];
    safety = withEffectFlags(flags, effects);
    execution = effects.cost;
    if (c.goldSignaturesAreSteps) kOpt += effects.gold?.signatures.length ?? 0;
  }
  // An error report ends the attempt with base 0, except on a judgement task (a `refused` check), where
  // refusing is what the checks ask for: there the checks alone decide.
  const base = compositeBase({
    checksHold: checks.every((x) => x.passed),
    errorReport: endedBy === "error_report",
    refusalExpected: expectsRefusal(task),
    integrityViolation: integrity,
  });
  const decay = stepDecay(kOpt, kAct, c.zeroRoundsDecay);
  const score = compositeScore(base, decay);
  const failure: Failure | null = integrity
    ? {
        class: "integrity_violation",
        reason: violations.map((v) => `${v.kind}${v.method ? ` ${v.method}` : ""}`).join(", "),
      }
    : base === 0
      ? {
          class: "checks_failed",
          code: compositeFailureCode(endedBy),
          reason: failedChecksReason(checks) || `ended by ${endedBy}`,
        }
      : null;
  const composite: CompositeRecord = {
    kOpt,
    kAct,
    kFailed,
    kQuery,
    budget: c.budget,
    base,
    decay,
    endedBy,
    answer: jsonSafe(c.answer),
    plan: c.plan,
    planSteps: c.planSteps,
    rounds,
    ethersNotDefined: rounds.some((r) => r.failure?.reason.includes("ethers is not defined")),
    ...c.record,
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
    prompt: c.messages,
    response: rounds.map((r) => r.response).join("\n\n---\n\n"),
    usage: c.usage,
    durationMs: clock.elapsed(),
    timings: clock.timings,
    composite,
  };
}

/**
 * One composite attempt under our protocol (README "Comparing with the paper", protocol rows): a planning call
 * (not counted), then execution rounds with the whole conversation kept. Each response is one round:
 * one module (a transaction or an `{answer}`) and/or a control JSON; `submit` takes effect after the
 * round's module ran, and the module's answer fields join the submitted answer. The budget is
 * `optimal_steps × max_rounds_multiplier`. Scored by {@link judgeComposite}. (`--protocol paper`:
 * src/protocol/paperComposite.ts.)
 */
export async function runCompositeAttempt(p: CompositeAttemptParameters): Promise<InstanceResult> {
  const { task, instance, world } = p;
  const kOpt = task.spec.optimal_steps!;
  const budget = kOpt * task.spec.max_rounds_multiplier!;

  const s = await setUpComposite(p);
  const { clients, clock } = s;

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
        const outcome = await executeRoundModule(p, s, request.code, record, violations);
        if (outcome.failure) {
          record.feedback = `Execution failed (${outcome.failure.class}${outcome.failure.code ? `/${outcome.failure.code}` : ""}): ${outcome.failure.reason}`;
        } else if (outcome.tx) {
          const changes = describeHoldingChanges(before, await readHoldings(clients.public, world));
          record.feedback = describeTx(
            outcome.tx,
            changes.filter((c) => !c.startsWith("BNB:")).concat(changes.filter((c) => c.startsWith("BNB:"))),
          );
        } else if (outcome.answer) {
          moduleAnswer = outcome.answer;
          record.feedback = `Your module returned the answer ${JSON.stringify(record.answer)}. Nothing was sent.`;
        }
        if (outcome.failure?.class === "integrity_violation") {
          endedBy = "integrity_violation";
          executed++;
          break;
        }
        // A module that decides at run time to refuse (`{ refuse: { reason } }`, as in atomic tasks) ends
        // the attempt like the error control message: the decision needs chain state only code can read
        // in the same round (conditional workflows of the hard split).
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

  return judgeComposite(p, s, {
    rounds,
    violations,
    answer,
    endedBy,
    refusal,
    plan,
    planSteps: planSteps(plan),
    messages,
    usage,
    kOpt,
    budget,
    zeroRoundsDecay: OUR_ZERO_ROUNDS_DECAY,
  });
}
