import type { ChatMessage, GoldActions, ToolCall } from "../../models/types.ts";
import { addUsage, type UsageRecord } from "../../models/usage.ts";
import type {
  Failure,
  InstanceResult,
  IntegrityViolationRecord,
  RoundRecord,
  ToolCallRecord,
  ToolsRecord,
} from "../../results/types.ts";
import { cleanText } from "../../sandbox/cleanText.ts";
import { startRpcGuard } from "../../sandbox/rpcGuard.ts";
import { worldPrices } from "../../validators/effects/executionCost.ts";
import { ledgerWorld } from "../../validators/effects/ledgerWorld.ts";
import { safetyFlags } from "../../validators/safety.ts";
import {
  atomicScore,
  compositeScore,
  failedChecksReason,
  isPass,
  OUR_ZERO_ROUNDS_DECAY,
  stepDecay,
} from "../../validators/score.ts";
import type { SentTransaction } from "../../validators/types.ts";
import { nextBaseFee, primeWorldClock } from "../../world/pool.ts";
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
} from "../atomic.ts";
import type { ChainClients } from "../chain.ts";
import { judgeComposite } from "../composite.ts";
import { type AttemptWindow, effectCheck, withEffectFlags } from "../effectCheck.ts";
import { goldCacheFile, readGoldCache, runGold, writeGoldCache } from "../goldRun.ts";
import { taskHint } from "../prompt.ts";
import { toolBudgets, toolDefinitions } from "./definitions.ts";
import { executeTool, guardedClient, type ToolOutcome } from "./execute.ts";
import { toolsPrompt } from "./prompt.ts";

/** Characters of a tool call's arguments and result kept in results.json. */
const RECORD_CHARS = 4000;
/** Characters of one tool result sent back to the model (a longer one is cut and says so). */
export const TOOL_RESULT_CHARS = 16_000;
/** Tool calls run per turn; the rest of a longer turn are answered "not run". */
export const TOOL_CALLS_PER_TURN = 16;

/**
 * The gold answer's actions on this instance, for a model that replays them (the `reference` model):
 * the gold runs from the attempt's starting state with the clock and base fee the attempt's first
 * block will have, then the chain goes back to the start (a new snapshot in `window`). The run is
 * kept in the gold cache, where the effect check finds it again.
 */
async function goldBeforeAttempt(
  p: AtomicAttemptParameters,
  clients: ChainClients,
  window: AttemptWindow,
): Promise<GoldActions> {
  const head = await clients.public.getBlock({ blockNumber: window.start });
  const first = {
    timestamp: head.timestamp + 1n,
    baseFeePerGas:
      head.baseFeePerGas === null ? null : nextBaseFee(head.baseFeePerGas, head.gasUsed, head.gasLimit),
  };
  const file = p.goldCache && goldCacheFile(p.goldCache, p.task, p.instance, p.world, first);
  const cached = file ? readGoldCache(file) : undefined;
  if (cached?.run.actions) return cached.run.actions;
  const prices = await worldPrices(clients.public, ledgerWorld(p.world), window.start);
  const gold = await runGold(
    p.task,
    p.instance,
    p.world,
    clients,
    window.start,
    first,
    await clients.test.snapshot(),
  );
  if (file) writeGoldCache(file, gold, prices);
  await clients.test.revert({ id: window.snapshotId });
  await primeWorldClock(clients.url);
  window.snapshotId = await clients.test.snapshot();
  return gold.actions;
}

const cut = (text: string) => (text.length > RECORD_CHARS ? `${text.slice(0, RECORD_CHARS)}…` : text);

/**
 * One attempt under `--protocol tools` (docs/PROTOCOLS.md): the model gets the request and the tool
 * set and acts over turns until it calls `finish`, `answer` or `refuse`, or the turn budget runs out.
 * Reads and signatures go through the attempt's RPC guard; transactions are normalised, signed and
 * sent by the harness. Scored by the same checks and effect ledger as the code protocol: an atomic
 * task by its checks (the last transaction is the checks' `tx`), a composite by the paper's step decay
 * with K_act = transactions sent + signatures made (src/protocol/composite.ts `judgeComposite`).
 * A model's mistake is a result, never a throw; only harness faults throw.
 */
export async function runToolsAttempt(p: AtomicAttemptParameters): Promise<InstanceResult> {
  const { task, instance, world } = p;
  const composite = task.spec.split === "composite";
  const clock = stopwatch();
  const setUp = await setUpInstance(p, clock);
  const { clients, ctx, window } = setUp;
  const gold = p.model.replaysGold
    ? await clock.lap("gold", () => goldBeforeAttempt(p, clients, window))
    : undefined;
  // Composite checks read their `init` values at the start; atomic ones just before the first send
  // (or at the end when nothing was sent), as under the code protocol.
  let prepared: unknown[] | undefined;
  const prepare = async () => {
    prepared ??= await clock.lap(composite ? "checks.init" : "checks.pre", () =>
      Promise.all(task.checks.map((c) => c.prepare?.(ctx))),
    );
  };
  if (composite) await prepare();

  const budgets = toolBudgets(task.spec);
  const signTypedData = task.spec.wallet?.signTypedData === true;
  const definitions = toolDefinitions({ signTypedData });
  const messages: ChatMessage[] = toolsPrompt(
    instance,
    task.spec.answer,
    world,
    { ...budgets, kOpt: composite ? task.spec.optimal_steps : undefined },
    { modes: p.modes, hint: taskHint(task.spec), set: task.spec.set, signTypedData },
  );
  const guard = await startRpcGuard({
    upstreamUrl: clients.url,
    // The harness makes the calls one by one and the turn and per-turn caps bound them: the guard's
    // flood cap (meant for a module's own loop) must not turn a long honest conversation into a violation.
    maxRequests: Number.POSITIVE_INFINITY,
    typedDataSigner: signTypedData
      ? { privateKey: world.agent.privateKey, chainId: world.chainId }
      : undefined,
  });
  const toolCtx = {
    guard,
    client: guardedClient(guard),
    clients,
    world,
    beforeSend: prepare,
    sendsLeft: budgets.sends,
  };
  const calls: ToolCallRecord[] = [];
  const rounds: RoundRecord[] = [];
  const sent: SentTransaction[] = [];
  const simulations: string[] = [];
  let simulatedBeforeSent = true;
  let signed = 0;
  let usage: UsageRecord | undefined;
  /** The ending call, and how the conversation ended (undefined while it goes on). */
  let ended: ToolOutcome["ends"];
  let endedBy: ToolsRecord["endedBy"] | undefined;
  let turns = 0;
  try {
    for (let turn = 1; turn <= budgets.turns && !endedBy; turn++) {
      turns = turn;
      const response = await clock.lap(`model.${turn}`, () =>
        p.model.generate({
          messages: [...messages],
          instance,
          spec: task.spec,
          world,
          step: "turn",
          round: turn,
          protocol: "tools",
          tools: definitions,
          gold,
        }),
      );
      usage = addUsage(usage, response);
      const toolCalls: ToolCall[] = response.toolCalls ?? [];
      messages.push({
        role: "assistant",
        content: response.text,
        ...(toolCalls.length ? { toolCalls } : {}),
      });
      if (toolCalls.length === 0) {
        messages.push({
          role: "user",
          content: "No tool was called. Act through the tools; end with finish, answer or refuse.",
        });
        continue;
      }
      for (const [index, call] of toolCalls.entries()) {
        // Every call of the turn gets a result (both wire formats require it); after an ending call, nothing runs.
        const outcome: ToolOutcome = endedBy
          ? { ok: false, result: { error: "not run: the attempt had already ended" } }
          : index >= TOOL_CALLS_PER_TURN
            ? {
                ok: false,
                result: { error: `not run: at most ${TOOL_CALLS_PER_TURN} tool calls run per turn` },
              }
            : await executeTool(call, definitions, toolCtx);
        if (outcome.simulated)
          simulations.push(
            JSON.stringify([
              outcome.simulated.to.toLowerCase(),
              outcome.simulated.data.toLowerCase(),
              String(outcome.simulated.value),
            ]),
          );
        if (outcome.tx || outcome.rejected) {
          const key = outcome.tx
            ? JSON.stringify([
                outcome.tx.to?.toLowerCase(),
                outcome.tx.input.toLowerCase(),
                String(outcome.tx.value),
              ])
            : undefined;
          if (!key || !simulations.includes(key)) simulatedBeforeSent = false;
          const round: RoundRecord = {
            round: rounds.length + 1,
            response: cut(`${call.name} ${call.arguments}`),
            kind: "failed",
            counted: true,
            feedback: cut(JSON.stringify(outcome.result)),
          };
          if (outcome.tx) {
            sent.push(outcome.tx);
            ctx.txs.push(outcome.tx);
            ctx.feesPaid += outcome.tx.fee;
            round.transaction = txRecord(outcome.tx);
            if (outcome.tx.receipt.status === "success") round.kind = "transaction";
            else
              round.failure = {
                class: "checks_failed",
                code: "reverted",
                reason: outcome.tx.revertReason ?? "reverted",
              };
          } else round.failure = { class: "send_rejected", reason: outcome.rejected! };
          rounds.push(round);
        }
        if (outcome.signed) {
          signed++;
          rounds.push({
            round: rounds.length + 1,
            response: cut(`${call.name} ${call.arguments}`),
            kind: "signature",
            counted: true,
            feedback: cut(JSON.stringify(outcome.result)),
          });
        }
        const full = JSON.stringify(outcome.result);
        const content =
          full.length > TOOL_RESULT_CHARS
            ? JSON.stringify({
                cut: `the result was ${full.length} characters; the first ${TOOL_RESULT_CHARS} follow`,
                text: full.slice(0, TOOL_RESULT_CHARS),
              })
            : full;
        calls.push({
          turn,
          name: cleanText(call.name, 80),
          arguments: cut(call.arguments),
          ok: outcome.ok,
          result: cut(content),
        });
        messages.push({ role: "tool", toolCallId: call.id, content });
        if (!endedBy && guard.violations.length > 0) endedBy = "integrity_violation";
        else if (!endedBy && outcome.ends) {
          ended = outcome.ends;
          endedBy = outcome.ends.kind;
        }
      }
    }
  } finally {
    await guard.close();
    window.signatures.push(...guard.signatures);
  }

  endedBy ??= "turn_budget";
  const violations: IntegrityViolationRecord[] = guard.violations.map((v) => ({ ...v }));
  const answer = ended?.answer ?? {};
  const refusal = endedBy === "refuse" ? { reason: ended?.reason ?? "" } : undefined;
  const record: ToolsRecord = {
    turns,
    turnBudget: budgets.turns,
    sendBudget: budgets.sends,
    endedBy,
    toolCalls: calls.length,
    sent: rounds.filter((r) => r.kind !== "signature").length,
    signed,
    simulatedBeforeSent: rounds.some((r) => r.kind !== "signature") ? simulatedBeforeSent : null,
    calls,
  };
  const response = messages
    .filter((m) => m.role === "assistant")
    .map((m) =>
      [m.content, ...(m.toolCalls ?? []).map((c) => `${c.name}(${c.arguments})`)].filter(Boolean).join("\n"),
    )
    .join("\n\n---\n\n");

  if (composite) {
    const result = await judgeComposite(
      p,
      { clients, ctx, window, clock, prepared: prepared ?? [] },
      {
        rounds,
        violations,
        answer,
        endedBy:
          endedBy === "refuse"
            ? "error_report"
            : endedBy === "turn_budget"
              ? "budget"
              : endedBy === "integrity_violation"
                ? "integrity_violation"
                : "submit",
        refusal,
        plan: "",
        planSteps: null,
        messages,
        usage,
        kOpt: task.spec.optimal_steps!,
        budget: budgets.sends,
        zeroRoundsDecay: OUR_ZERO_ROUNDS_DECAY,
        goldSignaturesAreSteps: true,
      },
    );
    const failure =
      result.failure?.class === "checks_failed" && endedBy === "turn_budget"
        ? { ...result.failure, class: "turn_budget" as const }
        : result.failure;
    return { ...result, failure, response, tools: record };
  }

  // Atomic: the checks judge the attempt's transactions (the last is `tx`), its answer or its refusal.
  ctx.tx = sent.at(-1);
  ctx.answer = instance.kind === "query" ? answer : undefined;
  ctx.refusal = refusal;
  await prepare();
  const base = {
    ...instanceFields(task, instance, p.model),
    prompt: messages,
    response,
    usage,
    integrityViolations: violations,
    tools: record,
  };
  if (violations.length > 0)
    return {
      ...base,
      score: 0,
      passed: false,
      checks: unevaluated(task, "not evaluated: integrity_violation"),
      failure: {
        class: "integrity_violation",
        reason: violations.map((v) => `${v.kind}${v.method ? ` ${v.method}` : ""}`).join(", "),
      },
      durationMs: clock.elapsed(),
      timings: clock.timings,
    };
  const checks = await clock.lap("checks", () => evaluateChecks(task, ctx, prepared ?? []));
  const flags = await clock.lap("safety", () => safetyFlags(ctx, checks));
  const effects = await clock.lap("effects", () =>
    effectCheck(task, instance, world, clients, window, p.goldCache),
  );
  const all = [...checks, effects.check];
  const refusedWrongly = refusal && !expectsRefusal(task);
  // One transaction is the task (none for a query), plus the signatures the gold makes: every further
  // transaction or signature decays the score as in a composite, so a step nobody asked for costs even
  // when it moves no asset the ledger sees (docs/SCORING.md "Tool-using agents").
  const kOpt = (instance.kind === "query" ? 0 : 1) + (effects.gold?.signatures.length ?? 0);
  const decay = stepDecay(kOpt, rounds.length, OUR_ZERO_ROUNDS_DECAY);
  record.kOpt = kOpt;
  record.decay = decay;
  const score = refusedWrongly ? 0 : compositeScore(atomicScore(all), decay);
  const passed = isPass(score);
  const failure: Failure | null = passed
    ? null
    : refusedWrongly
      ? { class: "checks_failed", code: "refused", reason: `refused: ${refusal.reason}` }
      : {
          class: endedBy === "turn_budget" ? "turn_budget" : "checks_failed",
          reason: failedChecksReason(all),
        };
  return {
    ...base,
    score,
    passed,
    checks: all,
    safety: withEffectFlags(flags, effects),
    ...(effects.cost ? { execution: effects.cost } : {}),
    ...(refusal ? { refusal } : {}),
    ...(ctx.tx
      ? { transaction: txRecord(ctx.tx) }
      : instance.kind === "query"
        ? { answer: jsonSafe(answer) }
        : {}),
    failure,
    durationMs: clock.elapsed(),
    timings: clock.timings,
  };
}
