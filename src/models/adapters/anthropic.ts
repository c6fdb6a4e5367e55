import type Anthropic from "@anthropic-ai/sdk";
import { ProviderCallError, providerCallError } from "../errors.ts";
import type { ChatMessage } from "../types.ts";
import { observeRetries, retryObservingFetch } from "./retries.ts";
import type { Adapter, AdapterParameters } from "./types.ts";

/**
 * The Anthropic Messages adapter (`@anthropic-ai/sdk`). System messages become the `system` field;
 * the answer is the concatenation of the text blocks (thinking blocks stay in `raw`). Anthropic takes
 * no seed. Input tokens include cache writes and reads. Tools (`--protocol tools`) go as `tools[]`
 * with `input_schema`; an assistant turn's calls as `tool_use` blocks, and the results of one turn as
 * `tool_result` blocks of one user message (a text after them joins that message).
 * @example
 * const adapter = anthropicAdapter({ baseURL: "https://api.anthropic.com", apiKey, model: "claude-sonnet-4-5", maxRetries: 5, timeoutMs: 600_000, seed: false });
 */
export function anthropicAdapter(p: AdapterParameters): Adapter {
  // The SDK is imported at the first call, not with the harness: a run of `reference` never loads it.
  let sdk: Promise<{ Anthropic: typeof Anthropic; client: Anthropic }> | undefined;
  const connect = () =>
    (sdk ??= import("@anthropic-ai/sdk").then(({ default: Anthropic }) => ({
      Anthropic,
      // An explicit timeout also skips the SDK's refusal of large non-streaming max_tokens.
      client: new Anthropic({
        apiKey: p.apiKey,
        baseURL: p.baseURL,
        maxRetries: p.maxRetries,
        timeout: p.timeoutMs,
        // The SDK retries; this fetch only watches its tries (src/models/adapters/retries.ts).
        fetch: retryObservingFetch(p.maxRetries),
      }),
    })));
  const where = `${p.model} at ${p.baseURL}`;
  return {
    api: "anthropic",
    async generate(messages, settings, hooks = {}, tools = undefined) {
      const system = messages
        .filter((m) => m.role === "system")
        .map((m) => m.content)
        .join("\n\n");
      const body: Anthropic.MessageCreateParamsNonStreaming = {
        model: p.model,
        max_tokens: settings.maxTokens,
        messages: toAnthropic(messages),
      };
      if (system) body.system = system;
      if (tools?.length)
        body.tools = tools.map((t) => ({
          name: t.name,
          description: t.description,
          input_schema: t.parameters as Anthropic.Tool.InputSchema,
        }));
      // SDK 1.x no longer types `temperature` (deprecated for the newest models), but the 4.5 models of
      // the paper still take it and the SDK sends the body as given.
      if (settings.temperature !== null)
        (body as unknown as Record<string, unknown>).temperature = settings.temperature;
      const { Anthropic, client } = await connect();
      let tries = { retries: 0, retryWaitMs: 0 };
      let message: Anthropic.Message;
      try {
        ({ value: message, ...tries } = await observeRetries(hooks.onRetry, () =>
          client.messages.create(body),
        ));
      } catch (error) {
        throw providerCallError(error, where, Anthropic);
      }
      const blocks = (message as Partial<Anthropic.Message> | undefined)?.content;
      if (typeof message !== "object" || message === null || !Array.isArray(blocks))
        throw new ProviderCallError(`${where}: malformed message (no content array)`, {
          code: "malformed_completion",
          retryable: true,
          details: JSON.stringify(message)?.slice(0, 300),
        });
      const usage = message.usage;
      const toolCalls = blocks
        .filter((b): b is Anthropic.ToolUseBlock => b?.type === "tool_use")
        .map((b) => ({ id: String(b.id), name: String(b.name), arguments: JSON.stringify(b.input ?? {}) }));
      return {
        ...(toolCalls.length ? { toolCalls } : {}),
        text: blocks
          .filter((b): b is Anthropic.TextBlock => b?.type === "text" && typeof b.text === "string")
          .map((b) => b.text)
          .join(""),
        usage: {
          inputTokens:
            (usage?.input_tokens ?? 0) +
            (usage?.cache_creation_input_tokens ?? 0) +
            (usage?.cache_read_input_tokens ?? 0),
          outputTokens: usage?.output_tokens ?? 0,
        },
        ...tries,
        finishReason: message.stop_reason ?? null,
        raw: message,
      };
    },
  };
}

/**
 * The conversation in the Messages wire format: system messages left out (they are `system`), tool
 * calls as `tool_use` blocks, and consecutive tool results and user texts merged into one user
 * message (roles must alternate). A call's arguments that are not a JSON object go as `{}`: the
 * harness already answered that call with its error.
 */
function toAnthropic(messages: ChatMessage[]): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (const m of messages) {
    if (m.role === "system") continue;
    if (m.role === "assistant") {
      const content: Anthropic.ContentBlockParam[] = [
        ...(m.content ? [{ type: "text" as const, text: m.content }] : []),
        ...(m.toolCalls ?? []).map((c) => ({
          type: "tool_use" as const,
          id: c.id,
          name: c.name,
          input: inputOf(c.arguments),
        })),
      ];
      out.push({ role: "assistant", content: m.toolCalls?.length ? content : m.content });
      continue;
    }
    const block: Anthropic.ContentBlockParam =
      m.role === "tool"
        ? { type: "tool_result", tool_use_id: m.toolCallId ?? "", content: m.content }
        : { type: "text", text: m.content };
    const last = out.at(-1);
    if (last?.role === "user" && (m.role === "tool" || Array.isArray(last.content))) {
      const blocks =
        typeof last.content === "string" ? [{ type: "text" as const, text: last.content }] : last.content;
      last.content = [...blocks, block];
    } else out.push({ role: "user", content: m.role === "tool" ? [block] : m.content });
  }
  return out;
}

function inputOf(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
