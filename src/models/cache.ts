import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ChatMessage, SamplingSettings, ToolCall, ToolDefinition, Usage } from "./types.ts";

/** `on`: read and write; `off`: neither; `replay`: read only, a miss is a provider error (no request is made). */
export type CacheMode = "on" | "off" | "replay";

/** What identifies one call (docs/RUNNING.md "Cache"): the same parts give the same cached response. */
export type CacheKeyParts = {
  /** Registry provider name, or `openai-compatible:<host or --name>` (the port is not part of it). */
  provider: string;
  model: string;
  messages: ChatMessage[];
  sampling: SamplingSettings;
  /** The instance's epoch: epochs are independent samples even when their prompts coincide. */
  epoch: number;
  /** `--protocol tools`: the tools offered (absent: none, and the key is the one it always was). */
  tools?: ToolDefinition[] | undefined;
};

/** One cache file (`<dir>/<provider>/<model>/<hh>/<sha256>.json`). */
export type CacheEntry = {
  version: 1;
  key: Omit<CacheKeyParts, "messages" | "tools"> & { messagesSha256: string; toolsSha256?: string };
  response: { text: string; toolCalls?: ToolCall[] | undefined; usage: Usage; finishReason: string | null };
  raw: unknown;
  createdAt: string;
};

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 120);

/**
 * A message as the key reads it: `[role, content]`, plus its tool calls or the call it answers
 * under `--protocol tools` (so a text conversation keeps the key it always had).
 */
const keyOf = (m: ChatMessage): unknown[] =>
  m.toolCalls?.length
    ? [m.role, m.content, m.toolCalls.map((c) => [c.id, c.name, c.arguments])]
    : m.toolCallId !== undefined
      ? [m.role, m.content, m.toolCallId]
      : [m.role, m.content];

/** The cache key: sha256 over the canonical JSON of the key parts (fixed field order, hex). */
export function cacheKey(parts: CacheKeyParts): string {
  return sha256(
    JSON.stringify({
      v: 1,
      provider: parts.provider,
      model: parts.model,
      messages: parts.messages.map(keyOf),
      sampling: [parts.sampling.temperature, parts.sampling.maxTokens, parts.sampling.seed],
      epoch: parts.epoch,
      ...(parts.tools?.length ? { tools: parts.tools } : {}),
    }),
  );
}

export type ResponseCache = {
  mode: CacheMode;
  dir: string;
  /** The file a key lives in. */
  file(parts: CacheKeyParts): string;
  /** The cached entry, or undefined on a miss (always a miss when the mode is `off`). */
  get(parts: CacheKeyParts): CacheEntry | undefined;
  /** Stores a response (no-op unless the mode is `on`). Safe under concurrent writers: temp file + rename. */
  put(parts: CacheKeyParts, response: CacheEntry["response"], raw: unknown): void;
};

/**
 * The on-disk response cache (docs/RUNNING.md "Cache"): one JSON file per call under
 * `<dir>/<provider>/<model>/<first two hex digits>/<key>.json`. Writers never leave a partial file
 * behind: each writes a uniquely named temp file in the same directory and renames it over the target
 * (atomic on POSIX), so concurrent runs sharing a cache, or a run killed mid-write, are safe; two
 * writers of one key both write a complete file and the last rename wins.
 * @example
 * const cache = createResponseCache({ dir: ".questbench/cache", mode: "on" });
 * const hit = cache.get({ provider: "anthropic", model: "claude-sonnet-4-5", messages, sampling, epoch: 0 });
 */
export function createResponseCache(p: { dir: string; mode: CacheMode }): ResponseCache {
  const dir = path.resolve(p.dir);
  const file = (parts: CacheKeyParts) => {
    const key = cacheKey(parts);
    return path.join(dir, slug(parts.provider), slug(parts.model), key.slice(0, 2), `${key}.json`);
  };
  return {
    mode: p.mode,
    dir,
    file,
    get(parts) {
      if (p.mode === "off") return undefined;
      try {
        const entry = JSON.parse(readFileSync(file(parts), "utf8")) as CacheEntry;
        return entry.version === 1 && typeof entry.response?.text === "string" ? entry : undefined;
      } catch {
        return undefined;
      }
    },
    put(parts, response, raw) {
      if (p.mode !== "on") return;
      const target = file(parts);
      const { messages, tools, ...rest } = parts;
      const entry: CacheEntry = {
        version: 1,
        key: {
          ...rest,
          messagesSha256: sha256(JSON.stringify(messages.map(keyOf))),
          ...(tools?.length ? { toolsSha256: sha256(JSON.stringify(tools)) } : {}),
        },
        response,
        raw,
        createdAt: new Date().toISOString(),
      };
      mkdirSync(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        writeFileSync(tmp, `${JSON.stringify(entry)}\n`);
        renameSync(tmp, target);
      } finally {
        rmSync(tmp, { force: true });
      }
    },
  };
}
