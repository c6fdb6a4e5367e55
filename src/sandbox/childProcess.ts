import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { SandboxError } from "../errors.ts";
import {
  type ChildMessage,
  ENVELOPE_BYTES,
  lineSplitter,
  parseChildLine,
  resultOf,
} from "./childMessages.ts";
import type { ExecuteModuleResult, ExecuteModuleTimings } from "./executeResult.ts";
import { bootFailure, type ChildLimits, classifyEnd } from "./exitClassification.ts";
import { childStdio } from "./inheritedFds.ts";
import { type ChildMemoryLimit, limitChildMemory, MEMORY_HEADROOM_MB } from "./memoryCgroup.ts";
import { SANDBOX_GID } from "./networkBarrier.ts";
import { MAX_RPC_IN_FLIGHT, rpcBridge } from "./rpcBridge.ts";
import { SANDBOX_BUILTINS } from "./sandboxBuiltins.ts";
import { sandboxRuntime } from "./sandboxRuntime.ts";
import { createChildFolder, type SandboxStage, writeChildModule } from "./stage.ts";
import { allocateSandboxUid, releaseSandboxUid, runsAsRoot } from "./uids.ts";

const NOGROUP = SANDBOX_GID;
const STDERR_TAIL_BYTES = 32 * 1024;
/** Milliseconds a child may take to boot and preload the libraries before it is a harness fault. */
const BOOT_TIMEOUT_MS = 60_000;

/** The limits of one run, and where its phase timings go. */
export type RunChildOptions = ChildLimits & { timings: ExecuteModuleTimings };

/** What the child's runner gets on stdin to run the module: `executeSkill`'s arguments and the output cap. */
export type ChildInput = {
  providerUrl: string;
  agentAddress: string;
  deployedContracts: Record<string, string>;
  maxOutputBytes: number;
};

/** One sandboxed `node` process, booted with its permissions, used for exactly one module. */
export type SandboxChild = {
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

/**
 * Boots one sandboxed child (docs/SECURITY.md, "Child process"): a uid of its own when root, its
 * private folder, then the `node` process under the permission model. It boots in the background;
 * {@link SandboxChild.ready} says when the runner has preloaded the libraries.
 * @throws {SandboxError} when every sandbox uid is in use; the folder's own error when it cannot be made.
 */
export function spawnChild(memoryMb: number, stage: SandboxStage): SandboxChild {
  const uid = runsAsRoot() ? allocateSandboxUid() : undefined;
  const dir = makeChildFolder(stage, uid);
  const modulePath = path.join(dir, "module.mjs");
  const { stdio, closeFds } = childStdio();
  const child = startProcess(stage, dir, uid, stdio, childArgs(stage, modulePath, memoryMb, closeFds));
  const spawned = new SpawnedChild(child, uid, dir, modulePath);
  live.add(spawned);
  return spawned;
}

/** Every child of this process not yet disposed: warm, or running a module. */
const live = new Set<SandboxChild>();

/**
 * Disposes every child of this process (its process group killed, its folder removed): at this
 * process's exit, so that neither an idle child nor one running a module outlives the harness whose
 * timeout was its only clock. A harness killed outright leaves its children to notice their stdin
 * close (childRunner.mjs exits then).
 */
export function disposeAllChildren(): void {
  for (const child of [...live]) child.dispose();
}

/** The child's private folder; its uid is given back when the folder cannot be made. */
function makeChildFolder(stage: SandboxStage, uid: number | undefined): string {
  try {
    return createChildFolder(stage, uid);
  } catch (error) {
    if (uid !== undefined) releaseSandboxUid(uid);
    throw error;
  }
}

/**
 * The child's command line. Reads: the runner (one file, its modules bundled), the bundle and this
 * child's own module, nothing else (no other child's folder, no /proc, no project file). No write, network,
 * process, worker, addon or WASI permission (docs/SECURITY.md, "Node permission model").
 * `closeFds`: the inherited descriptors the runner closes first (docs/SECURITY.md, "Descriptors").
 */
function childArgs(stage: SandboxStage, modulePath: string, memoryMb: number, closeFds: number[]): string[] {
  const runtime = sandboxRuntime();
  return [
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
      closeFds,
      maxRpcInFlight: MAX_RPC_IN_FLIGHT,
    }),
  ];
}

/**
 * Starts the process: an empty environment, four pipes and /dev/null over every other descriptor it
 * would inherit (`stdio`, from childStdio), a process group of its own, its uid when root.
 */
function startProcess(
  stage: SandboxStage,
  dir: string,
  uid: number | undefined,
  stdio: ReturnType<typeof childStdio>["stdio"],
  args: string[],
): ChildProcess {
  return spawn(stage.execPath, args, {
    cwd: dir,
    env: {},
    stdio,
    // A process group of its own, so a kill reaches anything it managed to start.
    detached: true,
    ...(uid !== undefined ? { uid, gid: NOGROUP } : {}),
  });
}

type RefStream = (NodeJS.ReadableStream & { ref?: () => void; unref?: () => void }) | null;

/** The hooks of the run in progress: what to do with a message, an overflow, the process's end. */
type RunHooks = {
  message?: ((message: ChildMessage | "malformed") => void) | undefined;
  overflow?: (() => void) | undefined;
  close?: (() => void) | undefined;
};

/** A spawned child: its boot, its pipes and its end, and the one run it serves. */
class SpawnedChild implements SandboxChild {
  private readonly child: ChildProcess;
  private readonly uid: number | undefined;
  private readonly dir: string;
  private readonly modulePath: string;
  readonly ready: Promise<void>;
  private resolveReady!: () => void;
  private rejectReady!: (error: unknown) => void;
  private readonly bootTimer: NodeJS.Timeout;
  private readonly streams: RefStream[];
  private readyAt: number | undefined;
  private closed: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private stderrTail = Buffer.alloc(0);
  private disposed = false;
  private hooks: RunHooks = {};
  private maxChannelBytes = 1024 * 1024 + ENVELOPE_BYTES;
  private memoryLimit: ChildMemoryLimit | undefined;
  private killedForMemory = false;
  private spawnError: unknown;

  constructor(child: ChildProcess, uid: number | undefined, dir: string, modulePath: string) {
    this.child = child;
    this.uid = uid;
    this.dir = dir;
    this.modulePath = modulePath;
    this.streams = [child.stdin, child.stdout, child.stderr, child.stdio[3]] as RefStream[];
    this.setRef(false);
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => {}); // An idle child that dies is only noticed when taken.
    this.bootTimer = setTimeout(() => {
      if (this.readyAt !== undefined) return;
      this.rejectReady(new SandboxError(`The sandbox process did not boot within ${BOOT_TIMEOUT_MS} ms.`));
      this.killGroup();
    }, BOOT_TIMEOUT_MS);
    this.bootTimer.unref();
    this.readPipes();
    this.watchEnd();
  }

  /** Idle, the child must not keep the harness alive; claimed, it must. */
  private setRef(on: boolean): void {
    if (on) this.child.ref();
    else this.child.unref();
    for (const stream of this.streams) (on ? stream?.ref : stream?.unref)?.call(stream);
  }

  private killGroup(): void {
    if (this.child.pid === undefined || this.closed) return;
    try {
      process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }

  /** stdout is drained, stderr's tail kept, fd 3 read line by line (childMessages.ts). */
  private readPipes(): void {
    const { child } = this;
    child.stdout?.resume(); // The model may log; its output is not part of the result.
    child.stderr?.on("data", (chunk: Buffer) => {
      this.stderrTail = Buffer.concat([this.stderrTail, chunk]);
      if (this.stderrTail.length > STDERR_TAIL_BYTES)
        this.stderrTail = this.stderrTail.subarray(-STDERR_TAIL_BYTES);
    });
    child.stdin?.on("error", () => {}); // EPIPE when the child is already gone: seen on close.
    child.stdio[3]?.on(
      "data",
      lineSplitter(
        () => this.maxChannelBytes,
        (line) => this.onLine(line),
        () => this.hooks.overflow?.(),
      ),
    );
  }

  /** The first "ready" ends the boot; every other message goes to the run in progress. */
  private onLine(line: Buffer): void {
    const message = parseChildLine(line);
    if (message !== "malformed" && message.type === "ready" && this.readyAt === undefined) {
      this.readyAt = performance.now();
      clearTimeout(this.bootTimer);
      this.resolveReady();
    } else this.hooks.message?.(message);
  }

  /** The process's end: its uid and cgroup released, a boot that never finished rejected. */
  private watchEnd(): void {
    this.child.on("error", (error) => {
      this.spawnError = error;
    });
    this.child.on("close", (code, signal) => {
      this.closed = { code, signal };
      if (this.uid !== undefined) releaseSandboxUid(this.uid);
      this.killedForMemory = this.memoryLimit?.killedForMemory() ?? false;
      this.memoryLimit?.release();
      if (this.disposed) this.setRef(false);
      clearTimeout(this.bootTimer);
      // No model code runs before the runner says "ready": dying earlier is the harness's fault.
      if (this.readyAt === undefined)
        this.rejectReady(bootFailure(this.spawnError, code, signal, this.stderrTail.toString("utf8")));
      this.hooks.close?.();
    });
  }

  writeModule(code: string): void {
    writeChildModule(this.modulePath, code, this.uid);
  }

  alive(): boolean {
    return !this.closed && !this.disposed;
  }

  claim(): void {
    this.setRef(true);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    live.delete(this);
    this.killGroup();
    // A child in a memory cgroup keeps the harness alive until its close event removes the group
    // (a few ms after the SIGKILL), so the run's last children leave no group behind.
    if (!this.memoryLimit || this.closed) this.setRef(false);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  run(input: ChildInput, options: RunChildOptions): Promise<ExecuteModuleResult> {
    const { timings } = options;
    this.maxChannelBytes = options.maxOutputBytes + ENVELOPE_BYTES;
    return new Promise<ExecuteModuleResult>((resolve) => {
      const goAt = performance.now();
      let result: ExecuteModuleResult | undefined;
      let ended: "timeout" | "output_too_large" | "rpc_replies" | undefined;
      const timer = setTimeout(() => {
        if (result || ended) return;
        ended = "timeout";
        this.killGroup();
      }, options.timeoutMs);
      const finish = (value: ExecuteModuleResult) => {
        if (result) return;
        result = value;
        timings.runMs = performance.now() - goAt;
        clearTimeout(timer);
        // The answer is in: whatever the module left running (timers, sockets) is of no interest.
        this.killGroup();
        resolve(value);
      };
      this.hooks.message = (message) => {
        if (result || ended) return;
        if (message === "malformed" || message.type === "result") finish(resultOf(message, timings));
        else if (message.type === "rpc") answerRpc(message);
      };
      const answerRpc = rpcBridge(
        input.providerUrl,
        this.child.stdin,
        () => result !== undefined || ended !== undefined || this.closed !== undefined,
        () => {
          if (result || ended) return;
          ended = "rpc_replies";
          this.killGroup();
        },
      );
      this.hooks.overflow = () => {
        if (result || ended) return;
        ended = "output_too_large";
        this.killGroup();
      };
      this.hooks.close = () => {
        if (result) return;
        timings.runMs = performance.now() - goAt;
        clearTimeout(timer);
        const { code, signal } = this.closed!;
        const processLimitMb = this.memoryLimit ? this.memoryLimit.limitBytes / 2 ** 20 : undefined;
        result = classifyEnd(
          {
            ended,
            code,
            signal,
            stderr: this.stderrTail.toString("utf8"),
            processLimitMb,
            killedForMemory: this.killedForMemory,
          },
          options,
          timings,
        );
        resolve(result);
      };
      if (this.closed) return this.hooks.close();
      // Into a memory cgroup of its own before the module arrives. Idle warm children stay out of
      // one: a child killed at the harness's exit never sends the close event that removes it.
      try {
        this.memoryLimit = limitChildMemory(
          this.child.pid!,
          (options.memoryMb + MEMORY_HEADROOM_MB) * 2 ** 20,
        );
      } catch (error) {
        clearTimeout(timer);
        this.killGroup();
        throw new SandboxError("Cannot put the sandbox process in its memory cgroup.", {
          cause: error,
          details: String(this.child.pid),
        });
      }
      this.child.stdin?.write(`${JSON.stringify(input)}\n`);
    });
  }
}
