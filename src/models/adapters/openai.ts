import type OpenAI from "openai";
import { ProviderCallError, providerCallError } from "../errors.ts";
import type { ChatMessage } from "../types.ts";
import { observeRetries, retryObservingFetch } from "./retries.ts";
import type { Adapter, AdapterParameters } from "./types.ts";

/**
 * The OpenAI chat-completions adapter (`openai` SDK): OpenAI itself and every OpenAI-compatible
 * endpoint by base URL (OpenRouter, DeepSeek, Moonshot, DashScope, xAI, Gemini's compatibility layer,
 * Z.ai, Mistral, vLLM, Ollama …).
 * Sends `temperature` unless null, the output cap as `max_tokens` or `max_completion_tokens`, and
 * `seed` where the provider accepts one. Only the message `content` is the answer: reasoning that some
 * providers return beside it (`reasoning_content`, `reasoning`) is kept in `raw`, not in `text`.
 * Tools (`--protocol tools`) go as `tools[].function`; an assistant turn's calls as `tool_calls`, each
 * result as a `tool` message with its `tool_call_id`.
 * @example
 * const adapter = openaiAdapter({ baseURL: "https://api.openai.com/v1", apiKey, model: "gpt-5", maxRetries: 5, timeoutMs: 600_000, seed: true });
 * const { text, usage } = await adapter.generate([{ role: "user", content: "hi" }], { temperature: null, maxTokens: 1000, seed: null });
 */
export function openaiAdapter(p: AdapterParameters): Adapter {
  // The SDK is imported at the first call, not with the harness: a run of `reference` never loads it.
  let sdk: Promise<{ OpenAI: typeof OpenAI; client: OpenAI }> | undefined;
  const connect = () =>
    (sdk ??= import("openai").then(({ default: OpenAI }) => ({
      OpenAI,
      client: new OpenAI({
        apiKey: p.apiKey,
        baseURL: p.baseURL,
        maxRetries: p.maxRetries,
        timeout: p.timeoutMs,
        organization: null,
        project: null,
        // The SDK retries; this fetch only watches its tries (src/models/adapters/retries.ts).
        fetch: retryObservingFetch(p.maxRetries),
      }),
    })));
  const where = `${p.model} at ${p.baseURL}`;
  return {
    api: "openai",
    async generate(messages, settings, hooks = {}, tools = undefined) {
      const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
        model: p.model,
        messages: messages.map(toOpenAI),
        [p.maxTokensParam ?? "max_tokens"]: settings.maxTokens,
      };
      if (tools?.length)
        body.tools = tools.map((t) => ({
          type: "function",
          function: { name: t.name, description: t.description, parameters: t.parameters },
        }));
      if (settings.temperature !== null) body.temperature = settings.temperature;
      if (p.seed && settings.seed !== null) body.seed = settings.seed;
      const { OpenAI, client } = await connect();
      let tries = { retries: 0, retryWaitMs: 0 };
      let completion: OpenAI.Chat.ChatCompletion;
      try {
        ({ value: completion, ...tries } = await observeRetries(hooks.onRetry, () =>
          client.chat.completions.create(body),
        ));
      } catch (error) {
        throw providerCallError(error, where, OpenAI);
      }
      const choice = (completion as Partial<OpenAI.Chat.ChatCompletion> | undefined)?.choices?.[0];
      if (typeof completion !== "object" || completion === null || !choice?.message)
        throw new ProviderCallError(`${where}: malformed completion (no choices[0].message)`, {
          code: "malformed_completion",
          retryable: true,
          details: JSON.stringify(completion)?.slice(0, 300),
        });
      const content = choice.message.content;
      if (content !== null && content !== undefined && typeof content !== "string")
        throw new ProviderCallError(`${where}: malformed completion (content is not a string)`, {
          code: "malformed_completion",
          retryable: true,
        });
      const usage = completion.usage;
      const toolCalls = (choice.message.tool_calls ?? []).flatMap((c) =>
        c?.type === "function" && c.function
          ? [
              {
                id: String(c.id ?? ""),
                name: String(c.function.name ?? ""),
                arguments: String(c.function.arguments ?? ""),
              },
            ]
          : [],
      );
      return {
        text: content ?? "",
        ...(toolCalls.length ? { toolCalls } : {}),
        usage: {
          inputTokens: usage?.prompt_tokens ?? 0,
          outputTokens: usage?.completion_tokens ?? 0,
          reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens ?? undefined,
        },
        ...tries,
        finishReason: choice.finish_reason ?? null,
        raw: completion,
      };
    },
  };
}

/** One message in the chat-completions wire format. */
function toOpenAI(m: ChatMessage): OpenAI.Chat.ChatCompletionMessageParam {
  if (m.role === "tool") return { role: "tool", tool_call_id: m.toolCallId ?? "", content: m.content };
  if (m.role === "assistant" && m.toolCalls?.length)
    return {
      role: "assistant",
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  return { role: m.role, content: m.content } as OpenAI.Chat.ChatCompletionMessageParam;
}
