import type {
  ChatMessage,
  RetryNotice,
  SamplingSettings,
  ToolCall,
  ToolDefinition,
  Usage,
} from "../types.ts";

/** What an adapter returns for one call: the completion text, token counts and the provider's raw answer. */
export type AdapterResponse = {
  text: string;
  /** The tool calls of the answer (`--protocol tools`); absent or empty when it called none. */
  toolCalls?: ToolCall[] | undefined;
  usage: Usage;
  /** The provider's finish/stop reason (`stop`, `length`, `end_turn`, `max_tokens` …), when given. */
  finishReason: string | null;
  raw: unknown;
  /** Tries the SDK made again before this answer (429, 408, 409, 5xx, timeout, connection), and the ms waited between tries. */
  retries: number;
  retryWaitMs: number;
};

/**
 * One wire format (OpenAI chat completions or Anthropic messages) behind one interface. Every adapter
 * passes the same contract suite (tests/models.adapters.test.ts).
 */
export type Adapter = {
  api: "openai" | "anthropic";
  /**
   * One completion for the whole conversation. Retries 429/408/409/5xx/timeouts/connection errors
   * through the SDK (exponential backoff from 0.5 s to 8 s with up to 25 % jitter, Retry-After and
   * retry-after-ms honoured); `hooks.onRetry` is told before each retry.
   * @throws {ProviderCallError} once retries are spent, or at once for 4xx answers and malformed completions.
   */
  generate(
    messages: ChatMessage[],
    settings: SamplingSettings,
    hooks?: { onRetry?: ((notice: RetryNotice) => void) | undefined },
    /** `--protocol tools`: the tools offered (sent as the wire format's tool definitions). */
    tools?: ToolDefinition[] | undefined,
  ): Promise<AdapterResponse>;
};

export type AdapterParameters = {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Retries after the first try (the SDK's `maxRetries`). */
  maxRetries: number;
  /** Per-try timeout in milliseconds. */
  timeoutMs: number;
  /** Whether the provider accepts a seed (it is sent only then, and only when set). */
  seed: boolean;
  /** OpenAI wire only: the field that caps the output. */
  maxTokensParam?: "max_tokens" | "max_completion_tokens" | undefined;
};
