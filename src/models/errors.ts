import { ModelProviderError } from "../errors.ts";

/** What went wrong with a provider call (results.json `failure.code` of a `provider_error`). */
export type ProviderErrorCode =
  | "missing_key"
  | "rate_limited"
  | "server_error"
  | "timeout"
  | "connection"
  | "bad_request"
  | "auth"
  | "malformed_completion"
  | "cache_miss"
  | "http_error"
  /** The run stopped after N identical non-retryable 4xx answers (src/models/breaker.ts). */
  | "run_stopped"
  /** `--protocol tools`: the endpoint refused the tool definitions (no native function calling). */
  | "tools_unsupported";

/**
 * A provider call failed: after the SDK's own retries (429, 408, 409, 5xx, timeouts, connection
 * errors), or at once for errors that retrying cannot fix (401, 400). `retryable` marks errors our own
 * wrapper retries (a malformed 200 answer, which the SDKs do not retry).
 */
export class ProviderCallError extends ModelProviderError {
  override name = "ProviderCallError";
  readonly code: ProviderErrorCode;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly #sdkError: unknown;
  constructor(
    shortMessage: string,
    parameters: {
      code: ProviderErrorCode;
      status?: number | undefined;
      retryable?: boolean;
      details?: string;
      cause?: unknown;
      /**
       * The SDK's error for an answer the provider gave (an HTTP status, a timeout, a refused
       * connection). Kept as {@link sdkError}, not as `cause`, and the stack is the message: such an
       * error is the provider's answer, not a fault in our code, so a test runner prints it as the
       * one line it is instead of two stacks and the SDK's serialized headers.
       */
      providerAnswer?: unknown;
    },
  ) {
    super(shortMessage, { details: parameters.details, cause: parameters.cause });
    this.code = parameters.code;
    this.status = parameters.status;
    this.retryable = parameters.retryable ?? false;
    this.#sdkError = parameters.providerAnswer;
    if (parameters.providerAnswer !== undefined) this.stack = `${this.name}: ${this.message}`;
  }

  /** The SDK's error behind a provider answer (its `requestID`, headers …), if any. */
  get sdkError(): unknown {
    return this.#sdkError;
  }
}

/** The connection error classes of the SDK that threw (`OpenAI` or `Anthropic`, the client class itself). */
type SdkErrors = {
  // biome-ignore lint/complexity/noBannedTypes: only used as the right side of `instanceof`.
  APIConnectionError: Function;
  // biome-ignore lint/complexity/noBannedTypes: only used as the right side of `instanceof`.
  APIConnectionTimeoutError: Function;
};

/**
 * Maps an error thrown by the `openai` or `@anthropic-ai/sdk` client (both Stainless SDKs with the
 * same error classes) to a {@link ProviderCallError}. `sdk` is that SDK's client class, passed in
 * rather than imported here so that the SDKs load only when a provider model is called.
 */
export function providerCallError(error: unknown, where: string, sdk: SdkErrors): ProviderCallError {
  if (error instanceof ProviderCallError) return error;
  const e = error as { status?: number; message?: string };
  const status = typeof e?.status === "number" ? e.status : undefined;
  const message = (e?.message ?? String(error)).split("\n")[0]!.slice(0, 300);
  if (error instanceof sdk.APIConnectionTimeoutError)
    return new ProviderCallError(`${where}: request timed out after retries`, {
      code: "timeout",
      providerAnswer: error,
    });
  if (error instanceof sdk.APIConnectionError)
    return new ProviderCallError(`${where}: connection failed after retries: ${message}`, {
      code: "connection",
      providerAnswer: error,
    });
  if (status !== undefined) {
    const code: ProviderErrorCode =
      status === 429
        ? "rate_limited"
        : status >= 500
          ? "server_error"
          : status === 401 || status === 403
            ? "auth"
            : status === 400 || status === 404 || status === 422
              ? "bad_request"
              : "http_error";
    return new ProviderCallError(`${where}: HTTP ${status}: ${message}`, {
      code,
      status,
      providerAnswer: error,
    });
  }
  if (error instanceof SyntaxError)
    return new ProviderCallError(`${where}: unparseable response body: ${message}`, {
      code: "malformed_completion",
      retryable: true,
      cause: error,
    });
  return new ProviderCallError(`${where}: ${message}`, { code: "http_error", cause: error });
}

/**
 * A `scripted:DIR` model has no response file for a request (README "Scripted models"): the model gave
 * no answer, so the instance is scored 0 with failure class `no_answer` — never retried as a provider
 * error, which rerunning cannot fix.
 */
export class NoAnswerError extends ModelProviderError {
  override name = "NoAnswerError";
}
