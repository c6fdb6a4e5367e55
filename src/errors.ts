/**
 * Errors raised by harness faults (never by a wrong model answer, which is a score with a reason).
 * Modelled on viem's BaseError: a short message, optional details and a docs pointer.
 */
export type BaseErrorParameters = {
  details?: string | undefined;
  cause?: unknown;
  docsPath?: string | undefined;
};

export class BaseError extends Error {
  override name = "BaseError";
  readonly shortMessage: string;
  readonly details: string | undefined;
  readonly docsPath: string | undefined;

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const lines = [shortMessage];
    if (parameters.details) lines.push("", `Details: ${parameters.details}`);
    if (parameters.docsPath) lines.push(`Docs: ${parameters.docsPath}`);
    super(lines.join("\n"), parameters.cause === undefined ? undefined : { cause: parameters.cause });
    this.shortMessage = shortMessage;
    this.details = parameters.details;
    this.docsPath = parameters.docsPath;
  }
}

/** A task spec is malformed: raised at load time with the file and the offending field. */
export class TaskSpecError extends BaseError {
  override name = "TaskSpecError";
  readonly file: string;
  readonly field: string;
  constructor(file: string, field: string, problem: string, parameters: BaseErrorParameters = {}) {
    super(`${file}: ${field}: ${problem}`, { docsPath: "tasks/README.md", ...parameters });
    this.file = file;
    this.field = field;
  }
}

/** The chain (Anvil) misbehaved: failed to start, a revert did not restore, an RPC call failed. */
export class ChainError extends BaseError {
  override name = "ChainError";
}

/** The sandbox itself failed (not the model's code): could not spawn, transpiler crashed. */
export class SandboxError extends BaseError {
  override name = "SandboxError";
}

/** A model provider failed after retries (network, 5xx, missing key). */
export class ModelProviderError extends BaseError {
  override name = "ModelProviderError";
}

/** A `--model` name that resolves to nothing: a usage error (exit code 2), not a provider fault. */
export class UnknownModelError extends ModelProviderError {
  override name = "UnknownModelError";
}

/**
 * A flag the model cannot take (`--budget` or `--price-in` for a model that calls no provider): a
 * usage error (exit code 2), like an unknown model.
 */
export class ModelFlagError extends UnknownModelError {
  override name = "ModelFlagError";
}
