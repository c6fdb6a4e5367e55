import { SandboxError } from "../errors.ts";
import { cleanText } from "./cleanText.ts";
import { type ExecuteModuleResult, type ExecuteModuleTimings, fail } from "./executeResult.ts";
import { MAX_REPLY_BYTES_PER_EXECUTION } from "./rpcBridge.ts";

/** Longest tail of the child's stderr quoted in a `process_exit` message. */
const MAX_STDERR_QUOTE_CHARS = 2_000;

/** The limits one execution ran under, as the failure messages quote them. */
export type ChildLimits = {
  /** Wall clock from handing the module over, in milliseconds. */
  timeoutMs: number;
  /** V8 heap cap in MiB. */
  memoryMb: number;
  /** Largest JSON encoding of the return value, in bytes. */
  maxOutputBytes: number;
};

/** How a child that sent no result ended. */
export type ChildEnd = {
  /**
   * Set when the harness killed the child itself: the wall clock ran out, the channel overflowed, or
   * its requests drew more answers than the bridge allows (rpcBridge.ts).
   */
  ended: "timeout" | "output_too_large" | "rpc_replies" | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The tail of the child's stderr (untrusted: the model's own output). */
  stderr: string;
  /** The child's memory cgroup limit in MiB; undefined when it ran in none. */
  processLimitMb: number | undefined;
  /** True when the child's memory cgroup counted an OOM kill. */
  killedForMemory: boolean;
};

/**
 * The child ended without sending a result: decide why from how it ended (docs/SECURITY.md,
 * "Memory" for when a SIGKILL is the module's memory, "Model text" for the quoted stderr).
 */
export function classifyEnd(
  end: ChildEnd,
  limits: ChildLimits,
  timings: ExecuteModuleTimings,
): ExecuteModuleResult {
  const { ended, code, signal, stderr, processLimitMb, killedForMemory } = end;
  if (ended === "timeout") {
    return fail(
      "timeout",
      `The module did not finish within ${limits.timeoutMs} ms and was killed.`,
      timings,
    );
  }
  if (ended === "output_too_large") {
    return fail(
      "output_too_large",
      `The module sent more than ${limits.maxOutputBytes} bytes of output.`,
      timings,
    );
  }
  if (ended === "rpc_replies") {
    // The harness holds every answer on the module's behalf: a resource of the module's, like its heap.
    return fail(
      "memory_limit",
      `The module's requests drew more than ${MAX_REPLY_BYTES_PER_EXECUTION / 2 ** 20} MiB of answers from the chain and it was stopped.`,
      timings,
    );
  }
  // V8 prints "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"
  // and aborts (SIGABRT). A SIGKILL is a memory limit only when the child's memory cgroup counted an
  // OOM kill: any other SIGKILL (the machine's OOM killer, another process) is not the module's fault
  // we can prove, and is reported as the process ending.
  if (/heap out of memory|Reached heap limit|Allocation failed/i.test(stderr) || killedForMemory) {
    const limitsText = `${limits.memoryMb} MiB of JavaScript heap${processLimitMb ? `, ${processLimitMb} MiB for the whole process` : ""}`;
    return fail(
      "memory_limit",
      `The module exceeded its memory limit (${limitsText}; ${signal ?? `exit code ${code}`}).`,
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

/**
 * Why a child ended before its runner said "ready". No model code runs before then, so this is
 * always the harness's fault, never a result.
 */
export function bootFailure(
  spawnError: unknown,
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
): SandboxError {
  return spawnError
    ? new SandboxError("Cannot spawn the sandbox's node process.", {
        cause: spawnError,
        details: process.execPath,
      })
    : new SandboxError("The sandbox process died before running the module.", {
        details: `exit code ${code}, signal ${signal}; stderr: ${stderr.trim()}`,
      });
}
