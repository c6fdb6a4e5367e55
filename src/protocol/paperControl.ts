import type { PlanSubtask } from "../results/types.ts";
import { cleanText } from "../sandbox/cleanText.ts";
import { bareObjects, type ControlReply, type ControlVocabulary, readControlReply } from "./control.ts";
import { fencedBlocks } from "./parse.ts";

/**
 * `--protocol paper`: reading the model's replies the way the paper implementation's composite
 * protocol does (README "Comparing with the paper", protocol rows): its plan of subtasks, and each
 * round's code block or query / error / submit control JSON. Nothing here throws: an unusable plan
 * falls back to one subtask, an unusable round is `invalid` (a failed try, scored).
 */

/** How a plan reply was read: its subtasks and which reading produced them. */
export type ParsedPlan = { subtasks: PlanSubtask[]; parse: "json" | "list" | "fallback" };

const text = (v: unknown, max = 2000) =>
  v === undefined || v === null ? "" : cleanText(typeof v === "string" ? v : JSON.stringify(v), max);

function toSubtask(value: unknown, i: number): PlanSubtask {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { step: i + 1, description: text(value), action_type: "", contract: "", details: "" };
  const v = value as Record<string, unknown>;
  return {
    step: i + 1,
    description: text(v.description ?? v.desc ?? v.task),
    action_type: text(v.action_type ?? v.action ?? v.type, 200),
    contract: text(v.contract, 200),
    details: text(v.details ?? v.params ?? v.parameters),
  };
}

/** The subtasks of a parsed plan JSON: `plan.subtasks`, top-level `subtasks`, or `plan` as a list (our format). */
function jsonSubtasks(value: unknown): PlanSubtask[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const plan = v.plan as Record<string, unknown> | unknown[] | undefined;
  const list = Array.isArray(plan)
    ? plan
    : Array.isArray(plan?.subtasks)
      ? plan.subtasks
      : Array.isArray(v.subtasks)
        ? v.subtasks
        : undefined;
  return list?.map(toSubtask);
}

/**
 * The plan reply as subtasks, in the paper implementation's order of readings: a ```json block or a
 * bare JSON object with the plan (an empty subtask list stays empty: no round runs), else numbered
 * ("1." / "1)") or "Step N:" lines, else one subtask that is the whole task (`taskText`).
 */
export function parsePlan(reply: string, taskText: string): ParsedPlan {
  const candidates = [
    ...fencedBlocks(reply)
      .filter((b) => b.lang === "json" || b.lang === "")
      .map((b) => b.code),
    ...bareObjects(reply),
  ];
  for (const candidate of candidates) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate);
    } catch {
      continue;
    }
    const subtasks = jsonSubtasks(parsed);
    if (subtasks) return { subtasks, parse: "json" };
  }
  const lines = reply
    .split("\n")
    .map((l) => /^\s*(?:\d+[.)]|step\s+\d+\s*[:.)-])\s*(.+)$/i.exec(l)?.[1]?.trim())
    .filter((l): l is string => Boolean(l));
  if (lines.length > 0) return { subtasks: lines.map((l, i) => toSubtask(l, i)), parse: "list" };
  return {
    subtasks: [
      { step: 1, description: cleanText(taskText), action_type: "execute", contract: "", details: "" },
    ],
    parse: "fallback",
  };
}

/** A control JSON of the paper protocol. */
export type PaperControl =
  | { kind: "submit"; answer: Record<string, unknown> }
  | { kind: "error"; type: string; message: string }
  | { kind: "query"; queryType: string; token: string | undefined; account: string | undefined };

/** One round's reply: a module to execute and/or a control JSON, or why it cannot be acted on. */
export type PaperRoundRequest = ControlReply<PaperControl>;

const looksLikeControl = (t: string) => /"(submit|error|error_detected|action)"\s*:/.test(t);

function toControl(value: unknown): PaperControl | string {
  if (!value || typeof value !== "object" || Array.isArray(value))
    return "the control JSON must be an object";
  const v = value as Record<string, unknown>;
  if (v.error_detected === true)
    return {
      kind: "error",
      type: text(v.error_type ?? "error", 200),
      message: text(v.error_message ?? ""),
    };
  if (v.error !== undefined && v.error !== null && v.error !== false) {
    const e = v.error as Record<string, unknown> | string;
    if (typeof e === "string") return { kind: "error", type: "error", message: cleanText(e) };
    return { kind: "error", type: text(e.type ?? "error", 200), message: text(e.message ?? "") };
  }
  if (v.action === "query")
    return {
      kind: "query",
      queryType: text(v.query_type ?? "", 200),
      token: typeof v.token_address === "string" ? v.token_address : undefined,
      account: typeof v.account === "string" ? v.account : undefined,
    };
  if (v.submit === true || v.action === "submit") {
    if (
      v.answer !== undefined &&
      (typeof v.answer !== "object" || v.answer === null || Array.isArray(v.answer))
    )
      return '"answer" must be an object';
    return { kind: "submit", answer: (v.answer ?? {}) as Record<string, unknown> };
  }
  return 'a control JSON needs "submit": true, "action": "query" or "submit", or "error_detected": true';
}

/** The paper protocol's control vocabulary: query, error (`error` or `error_detected`) and submit. */
export const PAPER_CONTROL_VOCABULARY: ControlVocabulary<PaperControl> = { looksLikeControl, toControl };

/**
 * Reads one round's reply: at most one module (a TypeScript block defining `executeSkill`) and at
 * most one control JSON (a ```json block, or a bare object with "submit", "error", "error_detected"
 * or "action"). As in the paper implementation, a code block is executed whatever control JSON is
 * beside it (a submit beside it makes the round a submission). Unparseable or unknown control JSON,
 * two of them, two modules, or neither module nor control JSON: `invalid` (schema_invalid).
 */
export function parsePaperRound(reply: string): PaperRoundRequest {
  return readControlReply(reply, PAPER_CONTROL_VOCABULARY);
}
