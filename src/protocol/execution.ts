import type { Failure, IntegrityViolationRecord } from "../results/types.ts";
import { cleanText } from "../sandbox/cleanText.ts";
import { type ExecuteModuleParameters, executeModule } from "../sandbox/executeModule.ts";
import type { ExecuteModuleResult } from "../sandbox/executeResult.ts";
import { startRpcGuard } from "../sandbox/rpcGuard.ts";
import type { SignedTypedData } from "../sandbox/typedDataSigner.ts";
import type { SentTransaction } from "../validators/types.ts";
import type { World } from "../world/world.ts";
import { type ChainClients, signAndSend } from "./chain.ts";
import { normaliseTransaction, type TransactionRequest } from "./transaction.ts";

/** What one execution may produce (docs/ARCHITECTURE.md "The attempt's contract"). */
export type ExecutionExpectation = "transaction" | "answer" | "either";

/** The outcome of one execution: a sent transaction, an answer, or a classified failure. */
export type ExecutionOutcome = {
  tx?: SentTransaction | undefined;
  /** The module refused the request (`{ refuse: { reason } }`, docs/SCORING.md "Answers"): nothing was sent. */
  refusal?: { reason: string } | undefined;
  answer?: Record<string, unknown> | undefined;
  failure?: Failure | undefined;
  violations: IntegrityViolationRecord[];
  timings: Record<string, number>;
};

const SANDBOX_FAILURE: Record<string, Failure["class"]> = {
  transpile_error: "compile_error",
  no_export: "schema_invalid",
  signature_mismatch: "schema_invalid",
  runtime_error: "runtime_error",
  process_exit: "runtime_error",
  timeout: "timeout",
  memory_limit: "resource_limit",
  output_too_large: "resource_limit",
  output_invalid: "schema_invalid",
  permission_denied: "sandbox_violation",
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === "object" && !Array.isArray(v);

/** What runs a module and returns `executeSkill`'s value: the sandbox, or in-process for trusted code. */
export type ModuleRunner = (parameters: ExecuteModuleParameters) => Promise<ExecuteModuleResult>;

export type RunExecutionParameters = {
  code: string;
  clients: ChainClients;
  world: World;
  expect: ExecutionExpectation;
  timeoutMs?: number | undefined;
  memoryMb?: number | undefined;
  /** The task declares `wallet.signTypedData`: the guard signs EIP-712 data for the agent (rpcGuard.ts). */
  signTypedData?: boolean | undefined;
  /**
   * Runs the module: the sandbox (`executeModule`) unless the caller's modules are the project's own
   * code (`executeTrustedModule` of goldRun.ts, for the mutants suite).
   */
  runModule?: ModuleRunner | undefined;
  /** Receives every EIP-712 signature the guard made for the agent (the attempt window's list). */
  signatures?: SignedTypedData[] | undefined;
  /** Runs after the module returned a valid transaction, before the harness sends it (atomic `pre` reads). */
  beforeSend?: (() => Promise<void>) | undefined;
};

/** What a module's return value asks for: a refusal, an answer, a transaction to send, or a schema failure. */
export type ModuleRequest =
  | { refusal: { reason: string } }
  | { answer: Record<string, unknown> }
  | { request: TransactionRequest }
  | { failure: Failure };

/**
 * Reads the value `executeSkill` returned (docs/SCORING.md "Answers"): `{ refuse: { reason } }` in
 * any kind of step; `{ answer: {...} }` where an answer is expected (or, for `either`, given);
 * otherwise a transaction request (see {@link normaliseTransaction}). A malformed value is a
 * `schema_invalid` failure with its reason, never a throw.
 */
export function interpretValue(value: unknown, expect: ExecutionExpectation): ModuleRequest {
  // A structured refusal: `{ refuse: { reason: string } }`, in any kind of step; nothing is sent.
  if (isPlainObject(value) && "refuse" in value && !("to" in value)) {
    const refuse = value.refuse;
    if (!isPlainObject(refuse) || typeof refuse.reason !== "string" || refuse.reason.trim() === "")
      return {
        failure: {
          class: "schema_invalid",
          code: "invalid_refusal",
          reason: "a refusal must be { refuse: { reason: string } } with a non-empty reason",
        },
      };
    return { refusal: { reason: cleanText(refuse.reason) } };
  }
  const isAnswer = isPlainObject(value) && "answer" in value && !("to" in value);
  if (expect === "answer" || (expect === "either" && isAnswer)) {
    if (!isPlainObject(value) || !isPlainObject(value.answer))
      return {
        failure: {
          class: "schema_invalid",
          code: "not_answer_object",
          reason: "a query step must return { answer: { ... } }",
        },
      };
    return { answer: value.answer };
  }
  const normalised = normaliseTransaction(value);
  if (!normalised.ok)
    return { failure: { class: "schema_invalid", code: normalised.reason, reason: normalised.message } };
  return { request: normalised.tx };
}

/**
 * One execution (docs/ARCHITECTURE.md "The attempt's contract"): the module runs in the sandbox behind a fresh RPC guard; a returned
 * transaction is normalised, signed with the agent key and sent; a returned `{ answer }` is read.
 * Model faults come back as `failure` (with its reason code, docs/SECURITY.md "Malformed model output and task specs"), never as exceptions.
 */
export async function runExecution(p: RunExecutionParameters): Promise<ExecutionOutcome> {
  const timings: Record<string, number> = {};
  const guard = await startRpcGuard({
    upstreamUrl: p.clients.url,
    typedDataSigner: p.signTypedData
      ? { privateKey: p.world.agent.privateKey, chainId: p.world.chainId }
      : undefined,
  });
  let execution: Awaited<ReturnType<typeof executeModule>>;
  const t0 = performance.now();
  try {
    execution = await (p.runModule ?? executeModule)({
      source: p.code,
      providerUrl: guard.url,
      agentAddress: p.world.agent.address,
      deployedContracts: { ...p.world.contracts },
      timeoutMs: p.timeoutMs,
      memoryMb: p.memoryMb,
    });
  } finally {
    await guard.close();
    p.signatures?.push(...guard.signatures);
  }
  timings.execute = Math.round(performance.now() - t0);
  for (const [k, v] of Object.entries(execution.timings ?? {}))
    timings[`sandbox.${k}`] = Math.round((v as number) * 10) / 10;
  const violations: IntegrityViolationRecord[] = guard.violations.map((v) => ({ ...v }));
  if (violations.length > 0)
    return {
      violations,
      timings,
      failure: {
        class: "integrity_violation",
        reason: violations.map((v) => `${v.kind}${v.method ? ` ${v.method}` : ""}`).join(", "),
      },
    };
  if (!execution.ok)
    return {
      violations,
      timings,
      failure: {
        class: SANDBOX_FAILURE[execution.error.code] ?? "runtime_error",
        code: execution.error.code,
        reason: execution.error.message,
      },
    };

  const read = interpretValue(execution.value, p.expect);
  if ("failure" in read) return { violations, timings, failure: read.failure };
  if ("refusal" in read) return { violations, timings, refusal: read.refusal };
  if ("answer" in read) return { violations, timings, answer: read.answer };
  if (p.beforeSend) await p.beforeSend();
  const t1 = performance.now();
  const sent = await signAndSend(p.clients, read.request);
  timings.send = Math.round(performance.now() - t1);
  if ("rejected" in sent)
    return { violations, timings, failure: { class: "send_rejected", reason: cleanText(sent.rejected) } };
  return { violations, timings, tx: sent };
}
