import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { SandboxError } from "../errors.ts";
import { postJson } from "../world/rpcHttp.ts";
import { cleanText } from "./cleanText.ts";
import {
  type ChildMemoryLimit,
  ensureMemoryBarrier,
  limitChildMemory,
  MEMORY_HEADROOM_MB,
} from "./memoryCgroup.ts";
import { ensureNetworkBarrier, SANDBOX_GID, SANDBOX_UIDS } from "./networkBarrier.ts";
import { reviveValue } from "./reviveValue.ts";
import { type GuardRequest, type GuardResponse, localGuardHandler } from "./rpcGuard.ts";
import { SANDBOX_BUILTINS } from "./sandboxBuiltins.ts";
import { sandboxRuntime } from "./sandboxRuntime.ts";
import { createChildFolder, type SandboxStage, sandboxStage, writeChildModule } from "./stage.ts";
import { transpileModule } from "./transpile.ts";

/** Parameters of {@link executeModule}. */
export type ExecuteModuleParameters = {
  /** TypeScript of the model's code block; must export `executeSkill` (docs/ARCHITECTURE.md "The attempt's contract"). */
  source: string;
  /** JSON-RPC URL handed to the module: the RPC guard's URL, never Anvil's. */
  providerUrl: string;
  /** The agent's address (0x-prefixed, 20 bytes). */
  agentAddress: string;
  /** Name → address of the contracts the task deployed, passed through unchanged. */
  deployedContracts: Record<string, string>;
  /** Wall-clock limit in milliseconds from handing the module to a booted child until its result (imports and run). Default 20 000. */
  timeoutMs?: number | undefined;
  /** V8 old-space limit in MiB (`--max-old-space-size`). Default 256. */
  memoryMb?: number | undefined;
  /** Largest JSON encoding of the return value, in bytes. Default 1 MiB. */
  maxOutputBytes?: number | undefined;
};

/** Why an execution produced no value. Every code is a fault of the model's code, never of the harness. */
export type ExecuteModuleErrorCode =
  | "transpile_error"
  | "no_export"
  | "signature_mismatch"
  | "runtime_error"
  | "timeout"
  | "memory_limit"
  | "permission_denied"
  | "output_invalid"
  | "output_too_large"
  | "process_exit";

/** Wall-clock milliseconds of each phase; 0 for phases that did not run. */
export type ExecuteModuleTimings = {
  /** esbuild transform. */
  transpileMs: number;
  /** Waiting for a booted child (Node under the permission model, ethers preloaded): ~0 when one was warm. */
  spawnMs: number;
  /** From handing the module over until the result or the end: importing the module and running it. */
  runMs: number;
};

/** Result of {@link executeModule}. `value` is the return value of `executeSkill`, bigints intact. */
export type ExecuteModuleResult =
  | { ok: true; value: unknown; timings: ExecuteModuleTimings }
  | { ok: false; error: { code: ExecuteModuleErrorCode; message: string }; timings: ExecuteModuleTimings };

export type ExecuteModuleReturnType = ExecuteModuleResult;

const NOGROUP = SANDBOX_GID;
/** uids of this process's live children; a new child never shares one with a live child. */
const uidsInUse = new Set<number>();
let nextUid = SANDBOX_UIDS.first + Math.floor(Math.random() * SANDBOX_UIDS.count);

/**
 * A uid of {@link SANDBOX_UIDS} no live child of this process holds. The walk starts at a random
 * point, so harness processes running side by side (Vitest workers, parallel runs) are unlikely to
 * meet; within one process uids are never shared while a child lives.
 */
export function allocateSandboxUid(): number {
  for (let tries = 0; tries < SANDBOX_UIDS.count; tries++) {
    const uid = nextUid;
    nextUid = SANDBOX_UIDS.first + ((nextUid - SANDBOX_UIDS.first + 1) % SANDBOX_UIDS.count);
    if (!uidsInUse.has(uid)) {
      uidsInUse.add(uid);
      return uid;
    }
  }
  throw new SandboxError("Every sandbox uid is in use.");
}

/** Returns a uid from {@link allocateSandboxUid} once its process is gone. */
export function releaseSandboxUid(uid: number): void {
  uidsInUse.delete(uid);
}
const STDERR_TAIL_BYTES = 32 * 1024;
/** Room on the result channel for the envelope and an error message, beyond the value itself. */
const ENVELOPE_BYTES = 64 * 1024;

/** Every code a child may report; anything else on the result channel is `output_invalid`. */
const CHILD_ERROR_CODES: ReadonlySet<string> = new Set<ExecuteModuleErrorCode>([
  "runtime_error",
  "timeout",
  "permission_denied",
  "output_invalid",
  "output_too_large",
  "no_export",
  "signature_mismatch",
]);
/** Longest failure message kept from the child (the runner cuts at 8,192 characters itself). */
const MAX_CHILD_MESSAGE_CHARS = 10_000;
/** Longest tail of the child's stderr quoted in a `process_exit` message. */
const MAX_STDERR_QUOTE_CHARS = 2_000;
/** Answers the child has not read yet, in bytes, beyond which further answers are dropped (the request then times out). */
const MAX_UNREAD_ANSWER_BYTES = 64 * 2 ** 20;
/** Bridged requests answered per execution before the channel refuses (the guard's own flood limit is 2,000 calls). */
const MAX_BRIDGED_REQUESTS = 10_000;

/**
 * How a bridged request reaches its guard: in-process when this process opened the guard, else
 * over HTTP from the harness (a `providerUrl` served elsewhere, e.g. a test's server).
 */
function rpcRoute(providerUrl: string): (request: GuardRequest) => Promise<GuardResponse> {
  const local = localGuardHandler(providerUrl);
  if (local) return local;
  const origin = new URL(providerUrl).origin;
  return async ({ path, body }): Promise<GuardResponse> => {
    try {
      const target = new URL(path, origin);
      if (target.origin !== origin) return { status: 404, headers: {}, body: "" };
      const answer = await postJson(String(target), body, 30_000);
      return { status: answer.status, headers: { "content-type": answer.contentType }, body: answer.text };
    } catch {
      return { status: 502, headers: {}, body: "" };
    }
  };
}

/** Deepest nesting of arrays and objects accepted in a returned value (a transaction has 2, an answer a few). */
const MAX_VALUE_DEPTH = 64;

/**
 * True when `value` nests deeper than `limit`, checked without recursion: `JSON.parse` accepts
 * 200,000 levels in 400 KB, and the harness's own recursive code (JSON.stringify of results,
 * validators) would then throw RangeError far from here.
 */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object" || ArrayBuffer.isView(current)) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A child's `{type:"rpc"}` line, checked field by field: only strings of bounded size pass. */
function bridgedRequest(message: Record<string, unknown>): (GuardRequest & { id: number }) | undefined {
  const { id, method, path, body } = message;
  if (!Number.isSafeInteger(id) || typeof method !== "string" || typeof path !== "string") return undefined;
  if (typeof body !== "string" || method.length > 16 || path.length > 4_096) return undefined;
  // A path, never an authority: "@host/" after the origin would name another server.
  if (!path.startsWith("/") || path.startsWith("//")) return undefined;
  return { id: id as number, method, path, body };
}

/**
 * Runs the model's module in a fresh, locked-down child `node` process and returns what
 * `executeSkill(providerUrl, agentAddress, deployedContracts)` returned.
 *
 * The child runs on the sandbox runtime (Node ≥ 25, see sandboxRuntime.ts) under `--permission`:
 * it may read only the runner, the ethers/viem bundle and its own module, all staged in the temp
 * folder (stage.ts); it may not write files, spawn processes, start workers or open any socket. Its
 * runner refuses every built-in not in SANDBOX_BUILTINS before the module runs (childRunner.mjs).
 * Its one way out is its pipes: the runner carries `fetch` requests for `providerUrl` over them,
 * and this function hands
 * each to the RPC guard behind `providerUrl` (in-process when this process opened it). It gets an
 * empty environment, a V8 heap cap, a wall-clock timeout that kills its process group, a memory
 * cgroup and a uid of its own when the harness is root. Threat model and what holds on which
 * set-up: docs/SECURITY.md. Its failure messages are cleaned (cleanText) before they are returned.
 *
 * A promise that never settles is reported as `timeout` as soon as the child's event loop empties
 * (nothing could ever settle it), rather than after the full wall clock; a promise kept pending by a
 * live timer or socket times out on the wall clock. A process that ends without a result
 * (`process.exit()`, a crash) is `process_exit`.
 *
 * Source: docs/ARCHITECTURE.md "The attempt's contract"; docs/SECURITY.md "The barriers".
 *
 * @returns `{ ok: true, value, timings }` or `{ ok: false, error: { code, message }, timings }`;
 *   every failure of the model's code is a result.
 * @throws {SandboxError} on harness faults: esbuild crashed, the temp folder cannot be written,
 *   `node` cannot be spawned, or the child died before running any model code.
 * @example
 * import { executeModule } from "./executeModule.ts";
 * const result = await executeModule({
 *   source: 'import { ethers } from "ethers";\nexport async function executeSkill(url, agent) { return { to: agent, data: "0x", value: ethers.parseEther("1") }; }',
 *   providerUrl: guard.url,
 *   agentAddress: "0x…",
 *   deployedContracts: {},
 * });
 * // result.ok && result.value.value === 10n ** 18n
 */
export async function executeModule(parameters: ExecuteModuleParameters): Promise<ExecuteModuleResult> {
  const timeoutMs = parameters.timeoutMs ?? 20_000;
  const memoryMb = parameters.memoryMb ?? DEFAULT_MEMORY_MB;
  const maxOutputBytes = parameters.maxOutputBytes ?? 1024 * 1024;
  const timings: ExecuteModuleTimings = { transpileMs: 0, spawnMs: 0, runMs: 0 };

  // Before any model code runs: keep sandboxed children off everything but the RPC guards.
  if (runsAsRoot()) ensureNetworkBarrier();
  ensureMemoryBarrier();
  const stage = await sandboxStage();
  const transpileStart = performance.now();
  const transpiled = await transpileModule(parameters.source, stage.bundle.entries);
  timings.transpileMs = performance.now() - transpileStart;
  if (!transpiled.ok)
    // esbuild quotes the model's source: cleaned like the child's own messages.
    return {
      ok: false,
      error: { code: "transpile_error", message: cleanText(transpiled.message, MAX_CHILD_MESSAGE_CHARS) },
      timings,
    };

  const waitStart = performance.now();
  const child = await takeChild(memoryMb, stage);
  timings.spawnMs = performance.now() - waitStart;
  try {
    child.writeModule(transpiled.code);
    return await child.run(
      {
        providerUrl: parameters.providerUrl,
        agentAddress: parameters.agentAddress,
        deployedContracts: parameters.deployedContracts,
        maxOutputBytes,
      },
      { timeoutMs, memoryMb, maxOutputBytes, timings },
    );
  } finally {
    child.dispose();
  }
}

const DEFAULT_MEMORY_MB = 256;
/** Milliseconds a child may take to boot and preload the libraries before it is a harness fault. */
const BOOT_TIMEOUT_MS = 60_000;

let warmSize = 2;
const warm: SandboxChild[] = [];
let exitHookInstalled = false;

/**
 * How many sandbox children this process keeps booted ahead of need (default 2; 0 turns the warm
 * pool off). A warm child has started Node under the permission model and preloaded the ethers
 * bundle, and waits for its one module: an execution then skips ~100–250 ms of boot on its critical
 * path. Every child still runs exactly one module and is killed afterwards; nothing is reused.
 */
export function setWarmSandboxChildren(count: number): void {
  warmSize = Math.max(0, Math.floor(count));
  while (warm.length > warmSize) warm.pop()?.dispose();
}

/**
 * Boots the warm pool now instead of at the first execution, so that execution finds a child ready
 * (a boot is ~120 ms of Node start and ethers preload; it then overlaps the chain lease and the
 * pre-state reads). Returns at once; a boot failure is reported by the execution that needs the child.
 */
export function fillWarmSandboxChildren(): void {
  if (warmSize === 0) return;
  sandboxStage().then(refillWarm, () => {});
}

/** Boots children until the warm pool holds `warmSize` (each booting in the background). */
function refillWarm(stage: SandboxStage): void {
  installExitHook();
  while (warm.length < warmSize) warm.push(spawnChild(DEFAULT_MEMORY_MB, stage));
}

/** A ready (or booting) child for one execution; the warm pool is refilled behind it. */
async function takeChild(memoryMb: number, stage: SandboxStage): Promise<SandboxChild> {
  installExitHook();
  let child: SandboxChild | undefined;
  if (memoryMb === DEFAULT_MEMORY_MB) {
    // Skip children that died while idle (killed from outside): they are replaced, not used.
    while (warm.length > 0 && !child) {
      const candidate = warm.shift()!;
      if (candidate.alive()) child = candidate;
      else candidate.dispose();
    }
  }
  child ??= spawnChild(memoryMb, stage);
  if (memoryMb === DEFAULT_MEMORY_MB) refillWarm(stage);
  child.claim();
  try {
    await child.ready;
  } catch (error) {
    child.dispose();
    throw error;
  }
  return child;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Idle children would see stdin close and leave on their own; their folders would not.
  process.on("exit", () => {
    for (const child of warm.splice(0)) child.dispose();
  });
}

function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

type ChildMessage =
  | { type: "ready" }
  | { type: "result"; ok: true; value?: unknown }
  | { type: "result"; ok: false; code: unknown; message: unknown }
  | { type: "rpc"; [field: string]: unknown };

type RunChildOptions = {
  timeoutMs: number;
  memoryMb: number;
  maxOutputBytes: number;
  timings: ExecuteModuleTimings;
};

type ChildInput = {
  providerUrl: string;
  agentAddress: string;
  deployedContracts: Record<string, string>;
  maxOutputBytes: number;
};

/** One sandboxed `node` process, booted with its permissions, used for exactly one module. */
type SandboxChild = {
  /** Writes the module where this child (and no other) may read it; before {@link SandboxChild.run}. */
  writeModule(code: string): void;
  /** Resolves once the runner has preloaded the libraries; rejects (SandboxError) if it died first. */
  ready: Promise<void>;
  alive(): boolean;
  /** Marks the child as in use: it now keeps the harness's event loop alive. */
  claim(): void;
  /** Sends the input; resolves with the module's result or how the process ended. */
  run(input: ChildInput, options: RunChildOptions): Promise<ExecuteModuleResult>;
  /** Kills the process group and removes the private folder. Idempotent. */
  dispose(): void;
};

function spawnChild(memoryMb: number, stage: SandboxStage): SandboxChild {
  const uid = runsAsRoot() ? allocateSandboxUid() : undefined;
  let dir: string;
  try {
    dir = createChildFolder(stage, uid);
  } catch (error) {
    if (uid !== undefined) releaseSandboxUid(uid);
    throw error;
  }
  const modulePath = path.join(dir, "module.mjs");
  const runtime = sandboxRuntime();
  // Reads: the runner, the bundle and this child's own module, nothing else (no other child's
  // folder, no /proc, no project file). No write, network, process, worker, addon or WASI permission.
  const args = [
    runtime.permissionFlag,
    ...runtime.lockdownFlags,
    "--disable-warning=ExperimentalWarning",
    `--allow-fs-read=${stage.bundle.dir}/*`,
    `--allow-fs-read=${stage.runnerPath}`,
    `--allow-fs-read=${modulePath}`,
    `--max-old-space-size=${memoryMb}`,
    stage.runnerPath,
    JSON.stringify({
      preload: [stage.bundle.entries.ethers],
      entries: stage.bundle.entries,
      bundleDir: stage.bundle.dir,
      moduleFile: modulePath,
      builtins: Object.keys(SANDBOX_BUILTINS),
    }),
  ];

  let readyAt: number | undefined;
  let closed: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let stderrTail = Buffer.alloc(0);
  let channel: Buffer[] = [];
  let channelBytes = 0;
  let disposed = false;
  let onMessage: ((message: ChildMessage | "malformed") => void) | undefined;
  let onOverflow: (() => void) | undefined;
  let onClose: (() => void) | undefined;
  let maxChannelBytes = 1024 * 1024 + ENVELOPE_BYTES;

  const child = spawn(stage.execPath, args, {
    cwd: dir,
    env: {},
    stdio: ["pipe", "pipe", "pipe", "pipe"],
    // A process group of its own, so a kill reaches anything it managed to start.
    detached: true,
    ...(uid !== undefined ? { uid, gid: NOGROUP } : {}),
  });
  const streams = [child.stdin, child.stdout, child.stderr, child.stdio[3]] as (
    | (NodeJS.ReadableStream & { ref?: () => void; unref?: () => void })
    | null
  )[];
  // Idle, the child must not keep the harness alive; claimed, it must.
  const setRef = (on: boolean) => {
    if (on) child.ref();
    else child.unref();
    for (const stream of streams) (on ? stream?.ref : stream?.unref)?.call(stream);
  };
  setRef(false);

  const killGroup = () => {
    if (child.pid === undefined || closed) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };

  let resolveReady!: () => void;
  let rejectReady!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => {}); // An idle child that dies is only noticed when taken.
  let memoryLimit: ChildMemoryLimit | undefined;
  let killedForMemory = false;
  const bootTimer = setTimeout(() => {
    if (readyAt !== undefined) return;
    rejectReady(new SandboxError(`The sandbox process did not boot within ${BOOT_TIMEOUT_MS} ms.`));
    killGroup();
  }, BOOT_TIMEOUT_MS);
  bootTimer.unref();

  const onLine = (line: Buffer) => {
    let message: ChildMessage;
    try {
      message = JSON.parse(line.toString("utf8"), reviveValue) as ChildMessage;
      if (message === null || typeof message !== "object") throw new Error("not a message");
    } catch {
      // Only the model's own code could write a malformed line to fd 3.
      onMessage?.("malformed");
      return;
    }
    if (message.type === "ready" && readyAt === undefined) {
      readyAt = performance.now();
      clearTimeout(bootTimer);
      resolveReady();
    } else onMessage?.(message);
  };

  child.stdout?.resume(); // The model may log; its output is not part of the result.
  child.stderr?.on("data", (chunk: Buffer) => {
    stderrTail = Buffer.concat([stderrTail, chunk]);
    if (stderrTail.length > STDERR_TAIL_BYTES) stderrTail = stderrTail.subarray(-STDERR_TAIL_BYTES);
  });
  child.stdin?.on("error", () => {}); // EPIPE when the child is already gone: seen on close.
  child.stdio[3]?.on("data", (chunk: Buffer) => {
    let rest = chunk;
    for (let newline = rest.indexOf(10); newline !== -1; newline = rest.indexOf(10)) {
      channel.push(rest.subarray(0, newline));
      const line = Buffer.concat(channel);
      channel = [];
      channelBytes = 0;
      rest = rest.subarray(newline + 1);
      onLine(line);
    }
    channel.push(rest);
    channelBytes += rest.length;
    // Checked while streaming so a huge reply never sits in the harness's memory.
    if (channelBytes > maxChannelBytes) {
      channel = [];
      channelBytes = 0;
      onOverflow?.();
    }
  });
  let spawnError: unknown;
  child.on("error", (error) => {
    spawnError = error;
  });
  child.on("close", (code, signal) => {
    closed = { code, signal };
    if (uid !== undefined) releaseSandboxUid(uid);
    killedForMemory = memoryLimit?.killedForMemory() ?? false;
    memoryLimit?.release();
    if (disposed) setRef(false);
    clearTimeout(bootTimer);
    if (readyAt === undefined) {
      // No model code runs before the runner says "ready": dying earlier is the harness's fault.
      rejectReady(
        spawnError
          ? new SandboxError("Cannot spawn the sandbox's node process.", {
              cause: spawnError,
              details: process.execPath,
            })
          : new SandboxError("The sandbox process died before running the module.", {
              details: `exit code ${code}, signal ${signal}; stderr: ${stderrTail.toString("utf8").trim()}`,
            }),
      );
    }
    onClose?.();
  });

  return {
    writeModule: (code) => writeChildModule(modulePath, code, uid),
    ready,
    alive: () => !closed && !disposed,
    claim: () => setRef(true),
    dispose() {
      if (disposed) return;
      disposed = true;
      killGroup();
      // A child in a memory cgroup keeps the harness alive until its close event removes the group
      // (a few ms after the SIGKILL), so the run's last children leave no group behind.
      if (!memoryLimit || closed) setRef(false);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    run(input, options) {
      const { timings } = options;
      maxChannelBytes = options.maxOutputBytes + ENVELOPE_BYTES;
      return new Promise<ExecuteModuleResult>((resolve) => {
        const goAt = performance.now();
        let result: ExecuteModuleResult | undefined;
        let ended: "timeout" | "output_too_large" | undefined;
        const timer = setTimeout(() => {
          if (result || ended) return;
          ended = "timeout";
          killGroup();
        }, options.timeoutMs);
        const finish = (value: ExecuteModuleResult) => {
          if (result) return;
          result = value;
          timings.runMs = performance.now() - goAt;
          clearTimeout(timer);
          // The answer is in: whatever the module left running (timers, sockets) is of no interest.
          killGroup();
          resolve(value);
        };
        onMessage = (message) => {
          if (result || ended) return;
          if (message === "malformed")
            finish(fail("output_invalid", "The sandbox result channel received malformed data.", timings));
          else if (message.type === "rpc") answerRpc(message);
          else if (message.type === "result") {
            if (message.ok === true) {
              if (nestsDeeperThan(message.value, MAX_VALUE_DEPTH))
                return finish(
                  fail(
                    "output_invalid",
                    `The return value nests deeper than ${MAX_VALUE_DEPTH} levels.`,
                    timings,
                  ),
                );
              return finish({ ok: true, value: message.value, timings });
            }
            // Untrusted: the model's code can write this channel too. Own, known codes only.
            const { code, message: text } = message as { code: unknown; message: unknown };
            if (typeof code !== "string" || !CHILD_ERROR_CODES.has(code) || typeof text !== "string")
              return finish(
                fail("output_invalid", "The sandbox result channel received an unknown failure.", timings),
              );
            // The one place the child's text is accepted: clean from here to every sink.
            finish(fail(code as ExecuteModuleErrorCode, cleanText(text, MAX_CHILD_MESSAGE_CHARS), timings));
          }
        };
        const route = rpcRoute(input.providerUrl);
        let bridged = 0;
        const answerRpc = (message: Record<string, unknown>) => {
          const request = bridgedRequest(message);
          if (!request || ++bridged > MAX_BRIDGED_REQUESTS) return;
          void route(request).then((answer) => {
            // A module that stops reading its answers must not grow the harness's memory.
            if (result || closed || (child.stdin?.writableLength ?? 0) > MAX_UNREAD_ANSWER_BYTES) return;
            child.stdin?.write(`${JSON.stringify({ type: "rpc", id: request.id, ...answer })}\n`);
          });
        };
        onOverflow = () => {
          if (result || ended) return;
          ended = "output_too_large";
          killGroup();
        };
        onClose = () => {
          if (result) return;
          timings.runMs = performance.now() - goAt;
          clearTimeout(timer);
          const { code, signal } = closed!;
          const processLimitMb = memoryLimit ? memoryLimit.limitBytes / 2 ** 20 : undefined;
          result = classifyEnd(
            ended,
            code,
            signal,
            stderrTail.toString("utf8"),
            options,
            timings,
            processLimitMb,
            killedForMemory,
          );
          resolve(result);
        };
        if (closed) return onClose();
        // Into a memory cgroup of its own before the module arrives. Idle warm children stay out of
        // one: a child killed at the harness's exit never sends the close event that removes it.
        try {
          memoryLimit = limitChildMemory(child.pid!, (options.memoryMb + MEMORY_HEADROOM_MB) * 2 ** 20);
        } catch (error) {
          clearTimeout(timer);
          killGroup();
          throw new SandboxError("Cannot put the sandbox process in its memory cgroup.", {
            cause: error,
            details: String(child.pid),
          });
        }
        child.stdin?.write(`${JSON.stringify(input)}\n`);
      });
    },
  };
}

function fail(
  code: ExecuteModuleErrorCode,
  message: string,
  timings: ExecuteModuleTimings,
): ExecuteModuleResult {
  return { ok: false, error: { code, message }, timings };
}

/** The child ended without sending a result: decide why from how it ended. */
function classifyEnd(
  ended: "timeout" | "output_too_large" | undefined,
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
  options: RunChildOptions,
  timings: ExecuteModuleTimings,
  processLimitMb: number | undefined,
  killedForMemory: boolean,
): ExecuteModuleResult {
  if (ended === "timeout") {
    return fail(
      "timeout",
      `The module did not finish within ${options.timeoutMs} ms and was killed.`,
      timings,
    );
  }
  if (ended === "output_too_large") {
    return fail(
      "output_too_large",
      `The module sent more than ${options.maxOutputBytes} bytes of output.`,
      timings,
    );
  }
  // V8 prints "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"
  // and aborts (SIGABRT). A SIGKILL is a memory limit only when the child's memory cgroup counted an
  // OOM kill: any other SIGKILL (the machine's OOM killer, another process) is not the module's fault
  // we can prove, and is reported as the process ending.
  if (/heap out of memory|Reached heap limit|Allocation failed/i.test(stderr) || killedForMemory) {
    const limits = `${options.memoryMb} MiB of JavaScript heap${processLimitMb ? `, ${processLimitMb} MiB for the whole process` : ""}`;
    return fail(
      "memory_limit",
      `The module exceeded its memory limit (${limits}; ${signal ?? `exit code ${code}`}).`,
      timings,
    );
  }
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  // The model's own stderr: cleaned like every other text of the child's.
  const tail = cleanText(stderr.trim().slice(-MAX_STDERR_QUOTE_CHARS), MAX_STDERR_QUOTE_CHARS);
  return fail(
    "process_exit",
    `The sandbox process ${how} before executeSkill returned a result.${tail ? ` ${tail}` : ""}`,
    timings,
  );
}
