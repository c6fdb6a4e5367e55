/*
 * What one attempt records (results.json `instances[]`): why it failed, the transaction it sent, the
 * integrity breaches refused, and a composite attempt's K values and rounds (docs/SCORING.md
 * "Composite tasks"). The instance around them is `InstanceResult` (src/results/types.ts).
 */

/** Why an instance did not score (results.json `instances[].failure.class`). */
export type FailureClass =
  | "schema_invalid"
  | "compile_error"
  | "runtime_error"
  | "timeout"
  | "resource_limit"
  | "sandbox_violation"
  | "integrity_violation"
  | "send_rejected"
  | "checks_failed"
  | "provider_error"
  | "infra_error"
  /** A `scripted:DIR` model without a response file for the task or a round of it: scored 0. */
  | "no_answer"
  /** `--protocol tools`: the turn budget ran out before an ending tool was called, and the checks did not hold. */
  | "turn_budget";

export type Failure = { class: FailureClass; reason: string; code?: string | undefined };

/** A refused RPC call or other integrity breach recorded on an attempt (docs/SECURITY.md "Hostile model code"). */
export type IntegrityViolationRecord = {
  kind: string;
  method?: string | undefined;
  at?: number | undefined;
  detail?: string | undefined;
};

/** The transaction the harness sent for an execution, as recorded in results. */
export type TransactionRecord = {
  hash: string;
  to: string | null;
  input: string;
  /** Wei, base-10 string. */
  value: string;
  status: "success" | "reverted";
  gasUsed: string;
  /** Wei paid, base-10 string. */
  fee: string;
  revertReason?: string | undefined;
};

/** How a composite round went (results.json `instances[].composite.rounds[]`). */
export type RoundRecord = {
  round: number;
  response: string;
  /**
   * What the round did: sent a transaction, returned an answer, failed, reported an error, or only
   * submitted; under `--protocol tools` a round is one transaction or one EIP-712 signature (`signature`).
   */
  kind: "transaction" | "answer" | "failed" | "error_report" | "submit_only" | "signature";
  /** True when the round counts in K_act (every execution round; a bare submit does not). */
  counted: boolean;
  transaction?: TransactionRecord | undefined;
  answer?: unknown;
  failure?: Failure | undefined;
  control?: "submit" | "error" | "query" | undefined;
  feedback: string;
  /**
   * `--protocol paper`: the 1-based plan subtask the round worked on (README "Comparing with the
   * paper", protocol rows). Absent under our protocol.
   */
  subtask?: number | undefined;
  /** `--protocol paper`: the round's try at its subtask, 1–3 (the third failed try skips it). */
  try?: number | undefined;
};

/**
 * `--protocol paper`: one subtask of the parsed plan, the fields the paper implementation's planning
 * call asks for (action type, contract, details: paper §4, composite tasks), each a string ("" when
 * the plan left it out).
 */
export type PlanSubtask = {
  step: number;
  description: string;
  action_type: string;
  contract: string;
  details: string;
};

/** The composite part of an instance result: K values (paper §3.7, Table 2) and the transcript. */
export type CompositeRecord = {
  kOpt: number;
  /** Execution rounds, failed ones and queries included (the paper's K_act). */
  kAct: number;
  /** Rounds that failed (runtime error, invalid response, revert, rejected send). */
  kFailed: number;
  /** Rounds that only read (returned an answer). */
  kQuery: number;
  budget: number;
  /** 100 iff every end-state check holds, else 0 (before the step-efficiency decay). */
  base: number;
  /** min(1, K_opt / K_act). */
  decay: number;
  /**
   * `plan_done` (`--protocol paper` only): every subtask of the plan was done or skipped without a
   * submit, which the paper's implementation takes as the final submission.
   */
  endedBy: "submit" | "error_report" | "budget" | "integrity_violation" | "plan_done";
  /** The submitted answer, with fields returned by the last module joined. */
  answer: unknown;
  plan: string;
  /** The plan's steps as parsed (src/results/metrics.ts `planSteps`); null when unreadable. Compare their count with kOpt. */
  planSteps?: string[] | null | undefined;
  rounds: RoundRecord[];
  /** Some round failed with "ethers is not defined" (the paper's ethers% metric). */
  ethersNotDefined: boolean;
  /**
   * `paper` when the attempt ran the paper implementation's protocol (`--protocol paper`,
   * src/protocol/paperComposite.ts); absent for ours (src/protocol/composite.ts).
   */
  protocol?: "paper" | undefined;
  /** `--protocol paper`: the subtasks that drove the rounds (the plan as read, see `planParse`). */
  subtasks?: PlanSubtask[] | undefined;
  /**
   * `--protocol paper`: how the plan was read: `json` (the plan's subtasks), `list` (numbered or
   * "Step N" lines), or `fallback` (one subtask, the whole task, as the paper's implementation does
   * with an unreadable plan).
   */
  planParse?: "json" | "list" | "fallback" | undefined;
};

/** One tool call of a `--protocol tools` attempt, as the harness ran it (docs/PROTOCOLS.md "Results"). */
export type ToolCallRecord = {
  /** 1-based model turn. */
  turn: number;
  name: string;
  /** The arguments as the model wrote them (JSON text, cut at 4,000 characters). */
  arguments: string;
  /** False when the call was refused or failed (unknown tool, malformed or bad arguments, a failed read). */
  ok: boolean;
  /** The result sent back to the model (JSON text, cut at 4,000 characters). */
  result: string;
};

/** How a `--protocol tools` attempt went (results.json `instances[].tools`). */
export type ToolsRecord = {
  /** Model turns taken, and the most allowed. */
  turns: number;
  turnBudget: number;
  /** Transactions the attempt may send. */
  sendBudget: number;
  /** How it ended: an ending tool, the turn budget, or an integrity violation. */
  endedBy: "finish" | "answer" | "refuse" | "turn_budget" | "integrity_violation";
  /** Tool calls made (every call, refused ones included). */
  toolCalls: number;
  /** Transactions sent (mined or refused by the node) and EIP-712 signatures made. */
  sent: number;
  signed: number;
  /**
   * Atomic tasks: the transactions and signatures the task takes (1, or 0 for a query, plus the gold's
   * signatures) and the step decay min(1, K_opt / K_act) applied to the checks' score (composites: in `composite`).
   */
  kOpt?: number | undefined;
  decay?: number | undefined;
  /** Every transaction sent was simulated first with the same target, calldata and value (null: none sent). */
  simulatedBeforeSent: boolean | null;
  calls: ToolCallRecord[];
};
