import type { Hex, PublicClient, TransactionReceipt } from "viem";
import type { Instance, TaskSpec } from "../tasks/types.ts";
import type { World } from "../world/world.ts";

/** The transaction the harness signed and sent for an execution, with its receipt. */
export type SentTransaction = {
  hash: Hex;
  to: Hex | null;
  /** Calldata as mined (`0x` for a plain transfer). */
  input: Hex;
  /** Wei sent with the call. */
  value: bigint;
  receipt: TransactionReceipt;
  /** gasUsed × effectiveGasPrice, in wei, paid by the agent. */
  fee: bigint;
  /** Decoded revert reason when the receipt has status reverted and a reason could be read. */
  revertReason?: string | undefined;
};

/** What a check may look at. Checks read the chain through `client` (the harness's direct RPC). */
export type CheckContext = {
  client: PublicClient;
  world: World;
  spec: TaskSpec;
  instance: Instance;
  /** The transaction of a transaction task (absent when nothing was sent). */
  tx?: SentTransaction | undefined;
  /** Every transaction of the attempt in order (atomic: the one `tx`; composite: all rounds'). */
  txs: SentTransaction[];
  /** The `answer` object of a query task as the module returned it (bigints preserved). */
  answer?: Record<string, unknown> | undefined;
  /** Sum of fees the agent paid between `pre` and `post` (atomic: the tx fee; composite: G). */
  feesPaid: bigint;
  /**
   * The attempt refused the request (tasks/hard/README.md "Refusals (judgement)"): an atomic module returned
   * `{ refuse: { reason } }`, or a composite ended with the `{"error": {...}}` control message.
   */
  refusal?: { reason: string } | undefined;
};

/** The outcome of one check on one instance (results.json `instances[].checks[]`). */
export type CheckResult = {
  name: string;
  weight: number;
  critical: boolean;
  passed: boolean;
  /** What was expected and what was found, in wei or raw units. */
  detail: string;
};

/**
 * One weighted, binary post-state test (docs/SCORING.md "Checks"). `prepare` runs at `pre` (after the module
 * returned, before the harness sends) and its result is handed to `evaluate`, which runs at `post`.
 */
export type Check = {
  name: string;
  weight: number;
  critical: boolean;
  prepare?(ctx: CheckContext): Promise<unknown>;
  evaluate(ctx: CheckContext, prepared: unknown): Promise<{ passed: boolean; detail: string }>;
};

/** Names a spec may use inside check arguments; used to validate specs at load time. */
export type CheckCompileContext = {
  parameterNames: ReadonlySet<string>;
  answerFields: ReadonlySet<string>;
};

/**
 * A check factory: validates its JSON arguments at load time (throwing `CheckArgsError` naming the
 * field) and returns the check's behaviour.
 */
export type CheckFactory = (
  args: Record<string, unknown>,
  compile: CheckCompileContext,
) => Pick<Check, "prepare" | "evaluate">;

/** A JSON Schema fragment for one check argument (draft-07; `#/definitions/expr` is an expression). */
export type ArgSchema = Record<string, unknown>;

/**
 * A check as a task file names it: what it tests (one line), its arguments' schemas (the task
 * JSON Schema is generated from these: scripts/task-schema.ts), an example `args`, and the factory.
 * The registry rejects an argument `args` does not declare before `build` runs.
 */
export type CheckDefinition = {
  description: string;
  args: Record<string, ArgSchema>;
  required?: string[];
  example: Record<string, unknown>;
  build: CheckFactory;
  /**
   * The check scores a refusal itself (it decides at run time whether refusing is right, e.g.
   * v3TwapGuard): a task with it may be passed by refusing, as one with a `refused` check.
   */
  judgesRefusal?: boolean;
};

/** Declares a check (identity; gives the literal its type). */
export function defineCheck(definition: CheckDefinition): CheckDefinition {
  return definition;
}

/** A bad check argument, naming the field below `args` (e.g. `token`). */
export class CheckArgsError extends Error {
  override name = "CheckArgsError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
