/**
 * Task spec and instance types (docs/TASKS.md "Task folders"). The JSON Schema in `tasks/task.schema.json` is the
 * source of truth for the file format; these types mirror it.
 */

export type Split = "atomic" | "composite";
/** The task set: the paper's 107 tasks, or the hard split (tasks/hard/README.md), reported apart. */
export type TaskSet = "paper" | "hard";
/** What `--split` selects: a paper split, the paper's 107, the hard split, or everything. */
export type SplitSelection = Split | "paper" | "hard" | "all";
export type Difficulty = "easy" | "easy-medium" | "medium" | "hard";
export type TaskKind = "transaction" | "query";

export type ParameterSpec =
  | { type: "decimal"; min: string; max: string; decimals: number }
  | { type: "int"; min: number; max: number; step?: number }
  | { type: "pick"; values: (string | number | Record<string, string | number>)[] }
  | { type: "fresh_address" }
  | { type: "fresh_account"; description?: string }
  | { type: "text"; minLength: number; maxLength: number; alphabet?: string }
  | { type: "derived"; expr: string; display?: "integer" | "units" | "text"; decimals?: number }
  /** A fixed amount the task both plants (pre-state) and tells (facts): one source for both. */
  | { type: "fixed"; value: string };

/** Answer field types (docs/TASKS.md "Transaction and query tasks"). */
export type AnswerFieldType = "wei" | "int" | "addr" | "str";
export type AnswerSpec = {
  fields: Record<
    string,
    {
      type: AnswerFieldType;
      description: string /** Composite: exact if given, not required. */;
      optional?: boolean;
    }
  >;
};

export type ActionSpec = { action: string; [arg: string]: unknown };
export type CheckSpec = {
  check: string;
  name?: string;
  weight?: number;
  critical?: boolean;
  args?: Record<string, unknown>;
};

export type TaskSpec = {
  id: string;
  version: number;
  split: Split;
  /** Default "paper"; "hard" tasks live in tasks/hard/<id>/. */
  set?: TaskSet;
  category: string;
  subcategory: string;
  difficulty: Difficulty;
  kind?: TaskKind;
  summary: string;
  parameters: Record<string, ParameterSpec>;
  templates: string[];
  /**
   * What the agent's wallet does beyond sending the returned transaction: `signTypedData` lets the
   * model's code ask the RPC guard for EIP-712 signatures by the agent (eth_signTypedData_v4).
   */
  wallet?: { signTypedData?: boolean };
  /** Templates at the paper's other NL levels (`templates` is precise); see task.schema.json. */
  templatesByLevel?: { moderate: string[]; vague: string[] };
  facts?: string[];
  /**
   * How the effect ledger holds this task's attempts against its gold answer (docs/SCORING.md
   * "Effect ledger"): `tolerance` for what a party the gold pays ends with ("0.01%" relative or "1000"
   * raw units; default exact); `grants`: "exact" (default: no grant left larger than the gold's) or
   * "atLeast" (the request names no amount: a larger grant passes, an unlimited one is flagged).
   */
  effects?: { tolerance?: string; grants?: "exact" | "atLeast" };
  preState?: ActionSpec[];
  checks: CheckSpec[];
  answer?: AnswerSpec;
  /** Composite: the atomic task ids the workflow chains, in order. */
  workflow?: string[];
  /** Composite: K_opt, the task's declared optimal number of execution rounds. */
  optimal_steps?: number;
  /** Composite: the round budget is `optimal_steps × max_rounds_multiplier`. */
  max_rounds_multiplier?: number;
  /**
   * Gold responses, read from the task folder (never written in task.json): `response` (atomic,
   * from gold.ts), or `plan` and `rounds` (composite, from gold/).
   */
  reference?: { response?: string; plan?: string; rounds?: string[] };
};

/** A loaded spec: the parsed file plus where it came from. */
export type LoadedTaskSpec = TaskSpec & {
  /**
   * Path relative to the project root, e.g. `tasks/atomic/erc20_transfer_fixed/task.json`; absolute
   * for a task pack's task.
   */
  file: string;
  /** sha256 of task.json and the gold files (recorded in the run manifest). */
  sha256: string;
  /** The task pack (`--tasks-dir`, absolute) the task comes from; absent for the package's tasks. */
  pack?: string;
};

import type { ParamValue } from "../expr/expr.ts";

export type { ParamValue };

/** A task spec made concrete by a seed (docs/TASKS.md "Sampling and instance seeds"). */
export type Instance = {
  taskId: string;
  taskVersion: number;
  split: Split;
  kind: TaskKind;
  /** The run seed and epoch this instance was drawn for. */
  runSeed: number;
  epoch: number;
  /** Hex seed derived from (run seed, task id, epoch). */
  seed: string;
  templateIndex: number;
  params: Record<string, ParamValue>;
  /** Private keys of `fresh_account` parameters; held by the harness, never shown to the model. */
  secrets: Record<string, `0x${string}`>;
  /** The task text: the chosen template with values filled in, followed by the told facts. */
  taskText: string;
};
