import type { ChatMessage } from "../models/types.ts";
import type { UsageRecord } from "../models/usage.ts";
import type { RunModes } from "../runOptions.ts";
import type { Split, TaskSet } from "../tasks/types.ts";
import type { ExecutionCost } from "../validators/effects/executionCost.ts";
import type { PaperScore } from "../validators/paperScoring.ts";
import type { SafetyFlag } from "../validators/safety.ts";
import type { CheckResult } from "../validators/types.ts";
import type {
  CompositeRecord,
  Failure,
  FailureClass,
  IntegrityViolationRecord,
  PlanSubtask,
  RoundRecord,
  ToolCallRecord,
  ToolsRecord,
  TransactionRecord,
} from "./attemptTypes.ts";
import type { ForkRecord, RunManifest, RunSelection } from "./manifestTypes.ts";

/*
 * results.json's types (docs/ARCHITECTURE.md "Results"), one source for results.schema.json
 * (`npm run schema:results`): the whole file and one instance here, the attempt's records in
 * attemptTypes.ts, the manifest in manifestTypes.ts.
 */
export type {
  CompositeRecord,
  Failure,
  FailureClass,
  ForkRecord,
  IntegrityViolationRecord,
  PlanSubtask,
  RoundRecord,
  RunManifest,
  RunModes,
  RunSelection,
  SafetyFlag,
  ToolCallRecord,
  ToolsRecord,
  TransactionRecord,
};

/** One instance's result (results.json `instances[]`). Amounts are base-10 strings (JSON has no bigint). */
export type InstanceResult = {
  taskId: string;
  taskVersion: number;
  split: Split;
  /**
   * The task set (README "Running"): `paper` (the paper's 107 tasks, Table 1's 10,700 total), `hard` (the
   * hard split) or `custom` (a task pack's task, `--tasks-dir`, README "Write your own task"); the
   * last two are reported apart and never added to the paper total. Absent in results written
   * before the hard split existed: read as `paper`.
   */
  set?: ResultSet | undefined;
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
  /** `--protocol tools` (docs/PROTOCOLS.md): every tool call and its result, and how the conversation went. */
  tools?: ToolsRecord | undefined;
  /**
   * Composite tasks: the workflow pattern Figures 4–5 group the result by (src/tasks/patterns.ts
   * `compositePattern`; the paper, §3.2 "composite_structure"), recorded when the result is built
   * so that the report needs no task folder. Absent for atomic tasks and in results written before
   * it existed (the report then falls back to the paper's name for the task id, else the subcategory).
   */
  pattern?: string | undefined;
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
 * Instances without a score (`failure.class = "provider_error"`) split as the totals are (docs/SCORING.md
 * "Totals"): `atomic`, `composite` and `total` of the paper's tasks only; the hard split's and the task
 * packs' (`custom`) apart, each present when not 0.
 */
export type ProviderErrors = {
  atomic: number;
  composite: number;
  total: number;
  hard?: number | undefined;
  custom?: number | undefined;
};

/** An instance's task set: the package's {@link TaskSet} (`paper`, `hard`), or `custom` for a task pack's task. */
export type ResultSet = TaskSet | "custom";

/**
 * The totals of a task set reported apart from the paper's (docs/SCORING.md "Totals"): the hard
 * split's, or the task packs' (`custom`): its atomic and composite tasks and their sum. Never added
 * to the paper's `total`.
 */
export type HardSummary = { atomic: SplitSummary; composite: SplitSummary; total: SplitSummary };

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
    /**
     * The task packs' tasks (`--tasks-dir`, set `custom`), reported apart like the hard split. Absent
     * when the folder holds none (and in results written before packs were a set of their own).
     */
    custom?: HardSummary | undefined;
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
    providerErrors?: ProviderErrors | undefined;
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
  /**
   * Instances the run did not start: `budget` (`--budget` would be passed) or `early_stop`
   * (`--early-stop N`: N schema failures in a row, paper §5.3). Left out of every score and maximum.
   */
  notStarted?: { taskId: string; epoch: number; reason: "budget" | "early_stop" }[] | undefined;
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

/**
 * Composite execution-quality metrics (paper §5.3 Table 2 and App. F.3 Table 9), over the composite
 * instances of a run. Percentages are 0–100; `null` when no composite instance ran.
 * - meanKAct: mean K_act (execution rounds, failures and queries included).
 * - effPct (Eff%): mean of min(1, K_opt / K_act) over the same instances as meanKAct (1 at K_act 0,
 *   docs/SCORING.md "Composite tasks").
 * - firstTryPct (1st%): share of instances that passed (score ≥ 60) without a failed round.
 * - ethersPct (ethers%): share of instances with an "ethers is not defined" failure in some round.
 * - overhead: Δ = K_act − K_opt — its mean, the share of instances with Δ > 0, and its P90
 *   (nearest rank).
 * - totalRetries: the §5.3 "total retries", summed over the instances ({@link retriesOf} in
 *   src/results/metrics.ts: counted rounds that follow a failed one).
 * Also kept apart (the paper's K_act conflates them): mean K_failed and mean K_query.
 */
export type CompositeMetrics = {
  count: number;
  meanKAct: number;
  meanKFailed: number;
  meanKQuery: number;
  /** Optional: results.json written before it was recorded has none (the report recomputes it). */
  totalRetries?: number | undefined;
  effPct: number;
  firstTryPct: number;
  ethersPct: number;
  overhead: { mean: number; overOptimalPct: number; p90: number };
};
