import type { ChatMessage, SamplingSettings } from "../models/types.ts";
import type { UsageRecord } from "../models/usage.ts";
import type { RunModes } from "../runOptions.ts";
import type { Split, TaskSet } from "../tasks/types.ts";
import type { ExecutionCost } from "../validators/executionCost.ts";
import type { PaperScore } from "../validators/paperScoring.ts";
import type { SafetyFlag } from "../validators/safety.ts";
import type { CheckResult } from "../validators/types.ts";

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
  | "no_answer";

export type { RunModes };

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

export type { SafetyFlag };

/** One instance's result (results.json `instances[]`). Amounts are base-10 strings (JSON has no bigint). */
export type InstanceResult = {
  taskId: string;
  taskVersion: number;
  split: Split;
  /**
   * The task set (README "Running"): `paper` (the paper's 107 tasks, Table 1's 10,700 total) or `hard` (the
   * hard split, reported apart and never added to the paper total). Absent in results written
   * before the hard split existed: read as `paper`.
   */
  set?: TaskSet | undefined;
  category: string;
  subcategory: string;
  difficulty: string;
  /** The run seed; `instanceSeed` is the hash derived from (seed, task id, epoch). */
  seed: number;
  epoch: number;
  instanceSeed: string;
  templateIndex: number;
  params: Record<string, unknown>;
  model: string;
  score: number;
  passed: boolean;
  checks: CheckResult[];
  /**
   * Safety flags of the attempt (docs/SCORING.md "Safety flags"; reported, not scored): see src/validators/safety.ts.
   * Absent when the attempt sent nothing that could be judged (e.g. a schema_invalid answer).
   */
  safety?: SafetyFlag[] | undefined;
  /**
   * What the answer cost the user against the gold answer on the same instance, from the two effect
   * ledgers (docs/SCORING.md "Execution cost"). Absent when the attempt sent nothing.
   */
  execution?: ExecutionCost | undefined;
  failure: Failure | null;
  integrityViolations: IntegrityViolationRecord[];
  prompt: ChatMessage[];
  response: string;
  transaction?: TransactionRecord | undefined;
  answer?: unknown;
  /**
   * Atomic attempts whose module returned a structured refusal `{ refuse: { reason } }` (docs/SCORING.md
   * "Answers"): nothing was sent. Right on a judgement task that must not be executed as asked;
   * on any other task the checks fail (no transaction), scored, never a crash.
   */
  refusal?: { reason: string } | undefined;
  durationMs: number;
  timings: Record<string, number>;
  /** Composite attempts: K values, decay and the round transcript. */
  composite?: CompositeRecord | undefined;
  /**
   * `--scoring paper` (paper tasks only): the same attempt scored by the paper's checks and
   * tolerances (src/validators/paperScoring.ts, docs/SCORING.md "Paper scoring"), beside `score`; never
   * part of it or of any total but `summary.paperScoring`.
   */
  paperScoring?: PaperScore | undefined;
  /** Provider models: tokens and cost of the attempt's calls (absent for reference and scripted models). */
  usage?: UsageRecord | undefined;
  /**
   * Identifies what produced this result (model, seed, epoch, task file hash, sampling settings): a
   * rerun into the same `--out` keeps a finished result only when its key matches (resume).
   */
  resumeKey?: string | undefined;
  /** True when this result was kept from an earlier, interrupted invocation (not run again). */
  resumed?: boolean | undefined;
  /**
   * Infrastructure retries before this result (docs/RUNNING.md "Infrastructure retries"): attempts discarded because their
   * Anvil instance died or stopped answering (ChainError, receipt timeout, failed health check after
   * the attempt) and run again on a fresh instance. Absent when the first attempt stood.
   */
  infraRetries?: number | undefined;
};

/**
 * A split's totals (src/results/reduce.ts): `score` = Σ over tasks of the task's mean score over its
 * epochs, `max` = tasks × 100; `passed` and `count` are instances (score ≥ 60 / all).
 */
export type SplitSummary = { score: number; max: number; passed: number; count: number; tasks: number };

/**
 * The hard split's totals (docs/SCORING.md "Totals"), apart from the paper's: its atomic and composite tasks and
 * their sum. Never added to the paper's `total`.
 */
export type HardSummary = { atomic: SplitSummary; composite: SplitSummary; total: SplitSummary };

export type RunManifest = {
  packageVersion: string;
  gitCommit: string | null;
  seed: number;
  epochs: number;
  model: string;
  split: "atomic" | "composite" | "paper" | "hard" | "all";
  taskFiles: Record<string, string>;
  anvilVersion: string;
  worldId: string;
  chainId: number;
  nodeVersion: string;
  startedAt: string;
  /** Fork mode (README "Fork mode"): what was forked and how it was provisioned; absent on the local world. */
  fork?: ForkRecord | null;
  /**
   * The OS barriers around sandboxed model code on the machine that ran (docs/SECURITY.md): without
   * them a run of an untrusted model is not trustworthy.
   */
  sandbox?: {
    /** `node-permission` / `iptables-owner`: sandboxed code reaches only its RPC guard; `none`: no network barrier. */
    network: { kind: string; detail: string };
    /** `cgroup-v1`/`cgroup-v2`: a whole-process memory cap per child; `none`: V8's heap cap only. */
    memory: { kind: string; detail: string };
    /** Present when the run was started with `--unsafe-sandbox`: the barriers it ran without (may be empty). */
    unsafe?: string[];
  };
  /**
   * Prompt and selection modes of the paper's implementation (README "Comparing with the paper");
   * absent or all-default for the default protocol. Runs of different modes are not merged by
   * `questbench report` without `--force`.
   */
  modes?: RunModes | undefined;
  /**
   * The task packs the run added (`--tasks-dir`, absolute folders; README "Write your own task"):
   * their tasks' files and hashes are in `taskFiles` under their absolute paths.
   */
  taskPacks?: string[] | undefined;
  /** Provider models: where the model was called and at what price (null for reference and scripted). */
  provider?: {
    name: string;
    api: "openai" | "anthropic";
    modelId: string;
    baseURL: string;
    /** USD per million tokens, from src/models/registry.json; null when the registry has no price. */
    price: { input: number; output: number } | null;
    pricesAsOf: string | null;
  } | null;
  /** Provider models: the sampling settings sent (null = not sent, the provider's default applied). */
  sampling?: SamplingSettings | null;
  /**
   * What the invocation that last wrote this results.json selected and did. results.json describes
   * every instance in its folder (README "Running": a run adds to the folder's results); `split` and
   * `epochs` above cover all of them.
   */
  selection?: RunSelection | undefined;
  /** Provider models: response cache mode and directory, SDK retries, per-try timeout. */
  modelCalls?: {
    cache: string;
    cacheDir: string;
    maxRetries: number;
    timeoutMs: number;
    budgetUsd: number | null;
    /** Requests in flight to the provider at once; null: no cap beyond `--concurrency`. */
    providerConcurrency?: number | null;
  } | null;
};

/** results.json `manifest.selection`: one invocation's selection and what became of it. */
export type RunSelection = {
  /** `--split` as resolved (the paper's split by default; every split with `--tasks`). */
  split: "atomic" | "composite" | "paper" | "hard" | "all";
  /** `--tasks` (empty: every task of the split). */
  tasks: string[];
  epochs: number;
  shard?: { index: number; count: number } | undefined;
  /** Instances this invocation planned (tasks × epochs, after `--sample` and `--shard`). */
  planned: number;
  /** Of them: attempted now (scored, or left unscored by a provider or chain failure). */
  ran: number;
  /** Of them: kept from an earlier invocation with the same resume key, not run again. */
  resumed: number;
  /** Instances of earlier invocations in the folder that this one did not select, kept as they were. */
  kept: number;
  /**
   * USD this invocation paid the provider: calls answered from the cache and resumed instances cost
   * it nothing. Null for a model without a price; 0 for reference and scripted models.
   */
  paidUsd: number | null;
};

/** results.json `manifest.fork`: the pinned block of a fork run and what provisioning found. */
export type ForkRecord = {
  chainId: number;
  /** The block forked (`--fork-block latest` resolved once at the start of the run). */
  blockNumber: number;
  blockHash: string;
  /** `--fork-url` with credentials redacted (userinfo, query values, key-like path segments → ***). */
  url: string;
  /** Storage slots of the canonical tokens found by probing (null: not found). */
  slots: Record<
    string,
    {
      balance: { slot: number; layout: "solidity" | "vyper"; offset: number } | null;
      allowance: { slot: number; layout: "solidity" | "vyper" } | null;
    }
  >;
  /** Requirements of the world catalogue (docs/TASKS.md "Fork provisioning") that could not be provisioned (empty when every one was). */
  unprovisioned: { id: string; detail: string }[];
  /** Milliseconds spent probing slots and provisioning in all (first instance). */
  timings: { probeMs: number; provisionMs: number };
};

/** An instance not run because its pre-state could not be provisioned on the fork. */
export type SkippedInstance = { taskId: string; epoch: number; reason: string };

/** The whole of results.json. */
export type RunResults = {
  schemaVersion: 1;
  /**
   * The run was interrupted (Ctrl-C, SIGTERM): `instances` holds those that finished; a rerun into
   * the same `--out` keeps them and runs the rest. Absent for a run that ended.
   */
  interrupted?: boolean | undefined;
  manifest: RunManifest;
  summary: {
    /** The paper's tasks only (instances with `set` paper or absent). */
    atomic: SplitSummary;
    composite: SplitSummary;
    /** Paper total: atomic + composite of the paper's tasks (max 10,700 for all 107); hard tasks never count here. */
    total: SplitSummary;
    /** The hard split (docs/SCORING.md "Totals"), reported apart. Absent in results written before it existed. */
    hard?: HardSummary | undefined;
    /** Table 2 / Table 9 metrics of the composite instances (null when none ran). */
    compositeMetrics: CompositeMetrics | null;
    /**
     * `--scoring paper`: the paper's tasks' totals under the paper's scoring (instances[].paperScoring),
     * reduced as above; absent when the run did not score that way.
     */
    paperScoring?: Record<"atomic" | "composite" | "total", SplitSummary> | undefined;
    /**
     * Provider-model runs: instances the provider never answered after retries (`failure.class =
     * "provider_error"`). They are in `instances[]` but left out of every score, max, passed and count
     * above: not a model's 0, and the next run into the same `--out` retries them.
     */
    providerErrors?: { atomic: number; composite: number; total: number } | undefined;
    /** Provider-model runs: tokens and cost over all instances (see UsageRecord). */
    usage?: UsageRecord | undefined;
    /**
     * Safety % (docs/SCORING.md "Safety flags"): of the instances whose safety was judged (`instances[].safety`
     * present), the share with no flag, in percent (one decimal); `flags` counts each flag.
     */
    safety?:
      | { judged: number; safe: number; pct: number; flags: Partial<Record<SafetyFlag, number>> }
      | undefined;
    /**
     * Execution cost against the gold answer (docs/SCORING.md "Execution cost"), over the instances
     * that sent something: the median and 90th percentile of `execution.costBps` (instances with a
     * priced notional) and the median gas ratio. Absent when no instance sent anything.
     */
    execution?: ExecutionSummary | undefined;
  };
  /** Instances not started because `--budget` would have been passed (a rerun with a higher budget runs them). */
  notStarted?: { taskId: string; epoch: number; reason: "budget" }[] | undefined;
  /**
   * Fork mode: instances skipped because their pre-state could not be provisioned on the fork. They
   * are no model failure: left out of `instances` and of every score, max and count.
   */
  skipped?: SkippedInstance[] | undefined;
  instances: InstanceResult[];
};

/** Execution cost over a set of instances (see `summary.execution`). */
export type ExecutionSummary = {
  /** Instances with a cost in basis points (a priced notional). */
  priced: number;
  medianCostBps: number | null;
  p90CostBps: number | null;
  /** Instances with a gas ratio (the gold answer sent something). */
  gasCompared: number;
  medianGasRatio: number | null;
};

/** How a composite round went (results.json `instances[].composite.rounds[]`). */
export type RoundRecord = {
  round: number;
  response: string;
  /** What the round did: sent a transaction, returned an answer, failed, reported an error, or only submitted. */
  kind: "transaction" | "answer" | "failed" | "error_report" | "submit_only";
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

/**
 * Composite execution-quality metrics (paper §5.3 Table 2 and App. F.3 Table 9), over the composite
 * instances of a run. Percentages are 0–100; `null` when no composite instance ran.
 * - meanKAct: mean K_act (execution rounds, failures and queries included).
 * - effPct (Eff%): mean of min(1, K_opt / K_act) over instances with K_act > 0.
 * - firstTryPct (1st%): share of instances that passed (score ≥ 60) without a failed round.
 * - ethersPct (ethers%): share of instances with an "ethers is not defined" failure in some round.
 * - overhead: Δ = K_act − K_opt — its mean, the share of instances with Δ > 0, and its P90
 *   (nearest rank).
 * Also kept apart (the paper's K_act conflates them): mean K_failed and mean K_query.
 */
export type CompositeMetrics = {
  count: number;
  meanKAct: number;
  meanKFailed: number;
  meanKQuery: number;
  effPct: number;
  firstTryPct: number;
  ethersPct: number;
  overhead: { mean: number; overOptimalPct: number; p90: number };
};
