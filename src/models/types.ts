import type { ModelProviderError } from "../errors.ts";
import type { Instance, LoadedTaskSpec } from "../tasks/types.ts";
import type { World } from "../world/world.ts";

/**
 * One message of a chat with a model (the prompt and the model's replies). Under `--protocol tools`
 * (docs/PROTOCOLS.md) an assistant message may carry the tool calls of its turn, and each call's
 * result comes back as a `tool` message naming the call it answers.
 */
export type ChatMessage = {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** Assistant messages only: the tool calls of the turn, in the order the model made them. */
  toolCalls?: ToolCall[] | undefined;
  /** Tool messages only: the id of the call this result answers. */
  toolCallId?: string | undefined;
};

/**
 * One tool call of a model (OpenAI `tool_calls[]`, Anthropic `tool_use` blocks): `arguments` is the
 * JSON text as the model wrote it (an Anthropic `input` object is serialised), unparsed, so a
 * malformed call is scored rather than lost.
 */
export type ToolCall = { id: string; name: string; arguments: string };

/** A tool offered to the model: its name, what it does, and a JSON Schema (draft 2020-12 subset) of its arguments. */
export type ToolDefinition = { name: string; description: string; parameters: Record<string, unknown> };

/**
 * What the gold answer did on an instance, in order, for the `reference` model under `--protocol
 * tools` (it replays them as tool calls): each EIP-712 signature's typed data and each transaction
 * request, then the answer or the refusal it ended with.
 */
export type GoldActions = {
  steps: (
    | { kind: "sign"; typedData: Record<string, unknown> }
    | { kind: "send"; request: { to: string; data: string; value: string } }
  )[];
  answer?: Record<string, unknown> | undefined;
  refusal?: { reason: string } | undefined;
};

/** Token counts of one or more model calls. Reasoning tokens are part of `outputTokens` (billed as output). */
export type Usage = {
  inputTokens: number;
  outputTokens: number;
  /** Output tokens the provider reports as reasoning ("thinking"), when it reports them. */
  reasoningTokens?: number | undefined;
};

/**
 * Sampling settings sent with every call (docs/RUNNING.md "Sampling"), recorded in the run manifest and part of
 * the response-cache key. `null` means "not sent": the provider's default applies.
 */
export type SamplingSettings = {
  /** The paper's 0.7 by default (§4.4); null for models that accept only their default. */
  temperature: number | null;
  /** Cap on output tokens (reasoning included, for reasoning models). */
  maxTokens: number;
  /** Sent only to providers that accept a seed. */
  seed: number | null;
};

/** One request to a model: the whole conversation so far, plus the instance (for gold/scripted models). */
export type ModelRequest = {
  messages: ChatMessage[];
  instance: Instance;
  spec: LoadedTaskSpec;
  world: World;
  /** "atomic" for the single atomic call; "plan" and "round" for composite attempts; "turn" under `--protocol tools`. */
  step: "atomic" | "plan" | "round" | "turn";
  /** 1-based execution round (composite). */
  round?: number;
  /**
   * `--protocol paper` (src/protocol/paperComposite.ts): set on its plan and round requests, so a
   * gold or scripted model can answer that protocol's plan format; `subtask` is the 1-based plan
   * subtask a round works on. Absent under our protocol.
   */
  protocol?: "paper" | "tools" | undefined;
  subtask?: number | undefined;
  /** `--protocol tools`: the tools offered (src/protocol/tools/definitions.ts); the model answers with calls to them. */
  tools?: ToolDefinition[] | undefined;
  /** `--protocol tools`, for a model that declares {@link ModelClient.replaysGold}: the gold answer's actions on this instance. */
  gold?: GoldActions | undefined;
  /** Told when a provider request is about to be sent again (progress lines show it while it waits). */
  onRetry?: ((notice: RetryNotice) => void) | undefined;
};

/** A provider request about to be sent again (the SDK's retry after a 429, a 5xx, a timeout or a dropped connection). */
export type RetryNotice = {
  /** HTTP status of the answer that is retried; null for a timeout or a connection error. */
  status: number | null;
  /** 1-based retry number and the most allowed (`--max-retries`). */
  retry: number;
  maxRetries: number;
  /** The wait the provider asked for (Retry-After), in ms; null when the SDK's own backoff applies. */
  retryAfterMs: number | null;
};

export type ModelResponse = {
  text: string;
  /** `--protocol tools`: the tool calls of this turn (none: the model answered in text only). */
  toolCalls?: ToolCall[] | undefined;
  usage?: Usage | undefined;
  raw?: unknown;
  /** True when the response came from the on-disk cache (nothing was paid for it in this run). */
  cached?: boolean | undefined;
  /** List-price cost of this call in USD; null when the model has no price in the registry. */
  costUsd?: number | null | undefined;
  /** Requests sent again before this answer came (see UsageRecord `retries`), and the ms waited before them. */
  retries?: number | undefined;
  retryWaitMs?: number | undefined;
};

/** Running totals of a provider model over one process (what the `--budget` projection reads). */
export type ModelStats = {
  calls: number;
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD paid for calls that did not come from the cache; null when the model has no price. */
  spentUsd: number | null;
};

/** A model under evaluation (docs/ARCHITECTURE.md "Models"). */
export type ModelClient = {
  /** The name given on the command line, e.g. `reference`, `scripted:my-answers`, `claude-sonnet`. */
  id: string;
  generate(request: ModelRequest): Promise<ModelResponse>;
  /**
   * `--protocol tools`: the model answers from the gold answer's actions (the `reference` model), so
   * the attempt runs the gold on the instance first and passes them as {@link ModelRequest.gold}.
   */
  replaysGold?: boolean | undefined;
  /** Provider models only: tokens, calls and spend so far in this process. */
  stats?: (() => ModelStats) | undefined;
  /**
   * Provider models only: the fatal error once the run's breaker tripped (N identical non-retryable
   * 4xx answers, src/models/breaker.ts); a runner starts no further instance after it.
   */
  stopped?: (() => ModelProviderError | undefined) | undefined;
};
