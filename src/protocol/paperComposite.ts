import { type Address, erc20Abi, formatUnits, getAddress, isAddress } from "viem";
import type { ChatMessage } from "../models/types.ts";
import { addUsage, type UsageRecord } from "../models/usage.ts";
import type {
  CompositeRecord,
  InstanceResult,
  IntegrityViolationRecord,
  PlanSubtask,
  RoundRecord,
} from "../results/types.ts";
import { cleanText } from "../sandbox/cleanText.ts";
import { PAPER_ZERO_ROUNDS_DECAY } from "../validators/score.ts";
import { jsonSafe } from "./atomic.ts";
import type { ChainClients } from "./chain.ts";
import {
  type CompositeAttemptParameters,
  executeRoundModule,
  judgeComposite,
  setUpComposite,
} from "./composite.ts";
import { type PaperControl, parsePaperRound, parsePlan } from "./paperControl.ts";
import { type PromptModes, paperPlanPrompt, paperRoundSystem, taskHint } from "./prompt.ts";

/** Tries per subtask before the paper implementation's protocol skips it. */
export const PAPER_TRIES_PER_SUBTASK = 3;

/** One line of the round history every round message repeats (the paper's "Round r – Subtask [type]: …"). */
type HistoryLine = { round: number; action: string; ok: boolean; note: string };

/** The history, the retry warning and the current subtask: the user message of one paper-protocol round. */
export function paperRoundMessage(
  history: readonly HistoryLine[],
  subtask: PlanSubtask,
  index: number,
  total: number,
  failedTries: number,
): string {
  const lines: string[] = [];
  if (history.length > 0) {
    lines.push("Previous rounds:");
    for (const h of history)
      lines.push(
        `Round ${h.round} – Subtask [${h.action || "step"}]: ${h.ok ? "SUCCESS" : "FAILED"}${h.note}`,
      );
    lines.push("");
  }
  if (failedTries > 0)
    lines.push(
      `WARNING: this subtask failed ${failedTries} time(s); try ${failedTries + 1} of ${PAPER_TRIES_PER_SUBTASK}. After the last try it is skipped.`,
      "",
    );
  lines.push(
    `CURRENT SUBTASK ${index + 1}/${total}`,
    `Action: ${subtask.action_type}`,
    `Description: ${subtask.description}`,
    `Contract: ${subtask.contract}`,
    `Details: ${subtask.details}`,
    index === total - 1
      ? 'This is the FINAL subtask: your reply is the submission (add {"submit": true, "answer": { ... }} in a ```json block beside the code).'
      : "This is not the final subtask.",
  );
  return lines.join("\n");
}

/**
 * The platform's query (the paper implementation's `action: "query"`): `balanceOf(account or the
 * agent)` of `token_address`, for `query_type` `token_balance` or `balance`. Returns the balance in
 * base units (a decimal string) and formatted with the token's decimals, or why it failed.
 */
async function platformQuery(
  clients: ChainClients,
  agent: Address,
  q: Extract<PaperControl, { kind: "query" }>,
): Promise<{ ok: true; answer: Record<string, string>; note: string } | { ok: false; reason: string }> {
  if (q.queryType !== "token_balance" && q.queryType !== "balance")
    return { ok: false, reason: `unsupported query_type '${q.queryType}' (token_balance or balance)` };
  if (!q.token || !isAddress(q.token)) return { ok: false, reason: "token_address must be a 0x address" };
  if (q.account !== undefined && !isAddress(q.account))
    return { ok: false, reason: "account must be a 0x address" };
  const token = getAddress(q.token);
  const account = q.account ? getAddress(q.account) : agent;
  try {
    const balance = await clients.public.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [account],
    });
    const decimals = await clients.public
      .readContract({ address: token, abi: erc20Abi, functionName: "decimals" })
      .catch(() => 18);
    const symbol = await clients.public
      .readContract({ address: token, abi: erc20Abi, functionName: "symbol" })
      .catch(() => "");
    const formatted = formatUnits(balance, decimals);
    return {
      ok: true,
      answer: {
        balance: balance.toString(),
        balance_formatted: formatted,
        token_symbol: cleanText(symbol, 32),
      },
      note: ` — balance_formatted: ${formatted} ${cleanText(symbol, 32)} (${balance} base units of ${token}, account ${account})`,
    };
  } catch (error) {
    return { ok: false, reason: `balanceOf failed: ${cleanText((error as Error).message, 300)}` };
  }
}

/**
 * One composite attempt under `--protocol paper`: the paper implementation's composite protocol
 * (README "Comparing with the paper", protocol rows; paper §4, composite tasks), on our world,
 * sandbox and checks.
 *
 * 1. A planning call (not counted) asks for {"plan": {"subtasks": [{step, description, action_type,
 *    contract, details}]}}; the reply is read as JSON, else numbered / "Step N" lines, else one
 *    subtask that is the whole task (src/protocol/paperControl.ts `parsePlan`).
 * 2. Rounds, at most `optimal_steps × max_rounds_multiplier`, each one model call with the system
 *    prompt (+ execution rules) and one user message: the history of earlier rounds (SUCCESS /
 *    FAILED with a tx hash prefix, an answer or query result, or the first 100 characters of the
 *    error), a retry warning, and the current subtask. Earlier replies are not resent.
 * 3. A reply is a code block (executed in the sandbox; a mined transaction is a success even when it
 *    reverted, as in the paper's implementation; a returned answer is a success), or a query JSON
 *    (the platform's balanceOf), or an error JSON. A submit without code, an unusable reply or a
 *    failed execution is a failed try. Every round counts in K_act.
 * 4. Success moves to the next subtask; on the final subtask, or with a submit beside the code, the
 *    attempt ends (`submit`). A failure retries the subtask, up to 3 tries, then it is skipped; an
 *    error report that is the third try ends the attempt (`error_report`). All subtasks done or
 *    skipped: `plan_done`; out of rounds: `budget`; an integrity violation ends it at once.
 *
 * Scored as ours (src/protocol/composite.ts `judgeComposite`: end-state checks, the effect ledger's ★
 * check), with the paper's decay: min(1, K_opt / K_act), and 0 when no round ran (an empty plan;
 * `PAPER_ZERO_ROUNDS_DECAY`, src/validators/score.ts).
 * The submitted answer is the submitting reply's `answer` joined with its module's answer fields.
 */
export async function runPaperCompositeAttempt(p: CompositeAttemptParameters): Promise<InstanceResult> {
  const { task, instance, world } = p;
  const kOpt = task.spec.optimal_steps!;
  const budget = kOpt * task.spec.max_rounds_multiplier!;
  const s = await setUpComposite(p);
  const mode: PromptModes = {
    modes: p.modes,
    hint: taskHint(task.spec),
    set: task.spec.set,
    signTypedData: task.spec.wallet?.signTypedData,
  };

  const messages: ChatMessage[] = [];
  let usage: UsageRecord | undefined;
  const ask = async (request: ChatMessage[], step: "plan" | "round", round?: number, subtask?: number) => {
    const t0 = performance.now();
    const response = await p.model.generate({
      messages: request,
      instance,
      spec: task.spec,
      world,
      step,
      round,
      protocol: "paper",
      subtask,
    });
    s.clock.timings.model = (s.clock.timings.model ?? 0) + Math.round(performance.now() - t0);
    usage = addUsage(usage, response);
    // The transcript: each message once (the round system message only when it first differs).
    for (const m of request)
      if (m.role !== "system" || !messages.some((x) => x.content === m.content)) messages.push(m);
    messages.push({ role: "assistant", content: response.text });
    return response.text;
  };

  const planPrompt = paperPlanPrompt(instance, task.spec.answer, world, budget, mode);
  const plan = await ask(planPrompt, "plan");
  const { subtasks, parse } = parsePlan(plan, instance.taskText);
  const system = paperRoundSystem(instance, task.spec.answer, world, mode);

  const rounds: RoundRecord[] = [];
  const violations: IntegrityViolationRecord[] = [];
  const history: HistoryLine[] = [];
  let answer: Record<string, unknown> = {};
  let endedBy: CompositeRecord["endedBy"] | undefined;
  let refusal: { reason: string } | undefined;
  let index = 0;
  let failedTries = 0;
  const agent = world.agent.address as Address;

  for (let round = 1; index < subtasks.length && round <= budget; round++) {
    const subtask = subtasks[index]!;
    const final = index === subtasks.length - 1;
    const text = await ask(
      [
        system,
        { role: "user", content: paperRoundMessage(history, subtask, index, subtasks.length, failedTries) },
      ],
      "round",
      round,
      index + 1,
    );
    const request = parsePaperRound(text);
    const record: RoundRecord = {
      round,
      response: text,
      kind: "failed",
      counted: true,
      feedback: "",
      subtask: index + 1,
      try: failedTries + 1,
    };
    rounds.push(record);
    let ok = false;
    let note = "";
    let errorReport: { reason: string } | undefined;
    let submitted: Record<string, unknown> | undefined;

    if (request.invalid) {
      record.failure = {
        class: "schema_invalid",
        code: request.invalid.reason,
        reason: request.invalid.message,
      };
    } else if (request.code) {
      const outcome = await executeRoundModule(p, s, request.code, record, violations);
      if (outcome.failure?.class === "integrity_violation") {
        endedBy = "integrity_violation";
        record.feedback = `integrity violation: ${outcome.failure.reason}`;
        break;
      }
      if (outcome.refusal) {
        record.kind = "error_report";
        record.control = "error";
        errorReport = { reason: `refused: ${outcome.refusal.reason}` };
      } else if (outcome.tx) {
        ok = true;
        note = ` — tx ${outcome.tx.hash.slice(0, 20)}… (status ${outcome.tx.receipt.status})`;
      } else if (outcome.answer) {
        ok = true;
        note = ` — answer: ${JSON.stringify(record.answer)}`;
      }
      if (ok && (final || request.control?.kind === "submit")) {
        record.control = "submit";
        submitted = {
          ...(request.control?.kind === "submit" ? request.control.answer : {}),
          ...(outcome.answer ?? {}),
        };
      }
    } else if (request.control?.kind === "error") {
      record.kind = "error_report";
      record.control = "error";
      errorReport = { reason: `${request.control.type}: ${request.control.message}` };
    } else if (request.control?.kind === "query") {
      record.control = "query";
      const q = await platformQuery(s.clients, agent, request.control);
      if (q.ok) {
        ok = true;
        record.kind = "answer";
        record.answer = jsonSafe(q.answer);
        note = q.note;
        if (final) {
          record.control = "submit";
          submitted = {};
        }
      } else record.failure = { class: "runtime_error", code: "query_failed", reason: q.reason };
    } else {
      // A submit without code: the paper's implementation executes it as a round with no code.
      record.kind = "failed";
      record.control = "submit";
      record.failure = {
        class: "schema_invalid",
        code: "no_code_block",
        reason: "a submit without a code block executes nothing",
      };
    }

    if (!ok && !errorReport && record.failure && !note)
      note = ` — ${`${record.failure.class}${record.failure.code ? `/${record.failure.code}` : ""}: ${record.failure.reason}`.slice(0, 100)}`;
    if (errorReport) note = ` — error reported: ${errorReport.reason.slice(0, 100)}`;
    history.push({ round, action: subtask.action_type, ok, note });
    record.feedback = `Round ${round} – Subtask [${subtask.action_type || "step"}]: ${ok ? "SUCCESS" : "FAILED"}${note}`;

    if (ok) {
      if (submitted) {
        answer = submitted;
        endedBy = "submit";
        break;
      }
      index++;
      failedTries = 0;
      continue;
    }
    failedTries++;
    if (failedTries >= PAPER_TRIES_PER_SUBTASK) {
      if (errorReport) {
        refusal = errorReport;
        endedBy = "error_report";
        break;
      }
      record.feedback += ` (subtask ${index + 1} skipped after ${PAPER_TRIES_PER_SUBTASK} tries)`;
      index++;
      failedTries = 0;
    }
  }
  endedBy ??= index >= subtasks.length ? "plan_done" : "budget";

  return judgeComposite(p, s, {
    rounds,
    violations,
    answer,
    endedBy,
    refusal,
    plan,
    planSteps: subtasks.map((t) => t.description),
    messages,
    usage,
    kOpt,
    budget,
    zeroRoundsDecay: PAPER_ZERO_ROUNDS_DECAY,
    record: { protocol: "paper", subtasks, planParse: parse },
  });
}
