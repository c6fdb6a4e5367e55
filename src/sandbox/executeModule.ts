import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SandboxError } from "../errors.ts";
import { ensureNetworkBarrier, SANDBOX_UID } from "./networkBarrier.ts";
import { reviveValue } from "./reviveValue.ts";
import { sandboxLibraries } from "./sandboxLibraries.ts";
import { transpileModule } from "./transpile.ts";

/** Parameters of {@link executeModule}. */
export type ExecuteModuleParameters = {
  /** TypeScript of the model's code block; must export `executeSkill` (SPEC §4). */
  source: string;
  /** JSON-RPC URL handed to the module: the RPC guard's URL, never Anvil's. */
  providerUrl: string;
  /** The agent's address (0x-prefixed, 20 bytes). */
  agentAddress: string;
  /** Name → address of the contracts the task deployed, passed through unchanged. */
  deployedContracts: Record<string, string>;
  /** Wall-clock limit in milliseconds for the whole child process (boot, imports, run). Default 20 000. */
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
  /** From `spawn` until the child's runner reports it is up (Node boot under the permission model). */
  spawnMs: number;
  /** From then until the result or the end: importing the module (and ethers/viem) and running it. */
  runMs: number;
};

/** Result of {@link executeModule}. `value` is the return value of `executeSkill`, bigints intact. */
export type ExecuteModuleResult =
  | { ok: true; value: unknown; timings: ExecuteModuleTimings }
  | { ok: false; error: { code: ExecuteModuleErrorCode; message: string }; timings: ExecuteModuleTimings };

export type ExecuteModuleReturnType = ExecuteModuleResult;

const NOBODY = SANDBOX_UID;
const STDERR_TAIL_BYTES = 32 * 1024;
/** Room on the result channel for the envelope and an error message, beyond the value itself. */
const ENVELOPE_BYTES = 64 * 1024;

let runnerSource: string | undefined;

/** Node 20 spells the permission flag `--experimental-permission`; Node 22+ spells it `--permission`. */
function permissionFlag(): string {
  if (process.allowedNodeEnvironmentFlags.has("--permission")) return "--permission";
  if (process.allowedNodeEnvironmentFlags.has("--experimental-permission"))
    return "--experimental-permission";
  throw new SandboxError(`Node ${process.version} has no permission model; the sandbox needs Node ≥ 20.`);
}

/**
 * Runs the model's module in a fresh, locked-down child `node` process and returns what
 * `executeSkill(providerUrl, agentAddress, deployedContracts)` returned.
 *
 * The child runs with Node's permission model (`--experimental-permission` on Node 20): it may read
 * only its own two files and the package folders of ethers, viem and their run-time dependencies
 * (no project files, no `.env`, no fixtures); it may not write files, spawn processes or start
 * workers. It gets an empty environment (`env: {}`), a V8 heap cap, a wall-clock timeout that kills
 * its whole process group, and when the harness runs as root it runs as `nobody` (uid/gid 65534).
 * Node 20's permission model does not restrict the network: isolation from anything but the RPC
 * guard needs an OS barrier.
 *
 * A promise that never settles is reported as `timeout` as soon as the child's event loop empties
 * (nothing could ever settle it), rather than after the full wall clock; a promise kept pending by a
 * live timer or socket times out on the wall clock. A process that ends without a result
 * (`process.exit()`, a crash) is `process_exit`.
 *
 * Source: SPEC §4 (model contract), §5 (sandbox).
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
  const memoryMb = parameters.memoryMb ?? 256;
  const maxOutputBytes = parameters.maxOutputBytes ?? 1024 * 1024;
  const timings: ExecuteModuleTimings = { transpileMs: 0, spawnMs: 0, runMs: 0 };

  // Before any model code runs: keep sandboxed children off everything but the RPC guards.
  if (runsAsRoot()) ensureNetworkBarrier();
  const transpileStart = performance.now();
  const transpiled = await transpileModule(parameters.source);
  timings.transpileMs = performance.now() - transpileStart;
  if (!transpiled.ok)
    return { ok: false, error: { code: "transpile_error", message: transpiled.message }, timings };

  const dir = createPrivateDir();
  try {
    const runnerPath = path.join(dir, "runner.mjs");
    const modulePath = path.join(dir, "module.mjs");
    runnerSource ??= fs.readFileSync(new URL("./childRunner.mjs", import.meta.url), "utf8");
    writeReadOnly(runnerPath, runnerSource);
    writeReadOnly(modulePath, transpiled.code);
    const args = [
      permissionFlag(),
      "--disable-warning=ExperimentalWarning",
      ...sandboxLibraries().libraryDirs.map((libraryDir) => `--allow-fs-read=${libraryDir}/*`),
      `--allow-fs-read=${runnerPath}`,
      `--allow-fs-read=${modulePath}`,
      `--max-old-space-size=${memoryMb}`,
      runnerPath,
      JSON.stringify({
        providerUrl: parameters.providerUrl,
        agentAddress: parameters.agentAddress,
        deployedContracts: parameters.deployedContracts,
        maxOutputBytes,
      }),
    ];
    return await runChild(args, dir, { timeoutMs, memoryMb, maxOutputBytes, timings });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * `<project>/.questbench/sandbox/<random>/`: inside the project so that bare `ethers` / `viem`
 * imports resolve to the project's node_modules by Node's normal lookup. As root the folder belongs to
 * root with group `nogroup` (0750), so `nobody` can read it and nothing else unprivileged can.
 */
function createPrivateDir(): string {
  const base = path.join(sandboxLibraries().projectRoot, ".questbench", "sandbox");
  const dir = path.join(base, randomBytes(12).toString("hex"));
  try {
    fs.mkdirSync(base, { recursive: true });
    fs.mkdirSync(dir, { mode: 0o700 });
    if (runsAsRoot()) {
      // `nobody` must traverse the parents (x only, no listing) to reach its own folder.
      for (const parent of [path.dirname(base), base]) {
        const mode = fs.statSync(parent).mode & 0o777;
        if ((mode & 0o001) === 0) fs.chmodSync(parent, mode | 0o001);
      }
      fs.chownSync(dir, 0, NOBODY);
      fs.chmodSync(dir, 0o750);
    }
  } catch (error) {
    throw new SandboxError("Cannot create the sandbox folder.", { cause: error, details: dir });
  }
  return dir;
}

function writeReadOnly(file: string, text: string): void {
  try {
    fs.writeFileSync(file, text, { mode: 0o600 });
    if (runsAsRoot()) {
      fs.chownSync(file, 0, NOBODY);
      fs.chmodSync(file, 0o640);
    }
  } catch (error) {
    throw new SandboxError("Cannot write a sandbox file.", { cause: error, details: file });
  }
}

type ChildMessage =
  | { type: "ready" }
  | { type: "result"; ok: true; value?: unknown }
  | { type: "result"; ok: false; code: ExecuteModuleErrorCode; message: string };

type RunChildOptions = {
  timeoutMs: number;
  memoryMb: number;
  maxOutputBytes: number;
  timings: ExecuteModuleTimings;
};

function runChild(args: string[], cwd: string, options: RunChildOptions): Promise<ExecuteModuleResult> {
  const { timings } = options;
  return new Promise<ExecuteModuleResult>((resolve, reject) => {
    const spawnStart = performance.now();
    let readyAt: number | undefined;
    let result: ExecuteModuleResult | undefined;
    let ended: "timeout" | "output_too_large" | undefined;
    let stderrTail = Buffer.alloc(0);
    let channel: Buffer[] = [];
    let channelBytes = 0;

    const child = spawn(process.execPath, args, {
      cwd,
      env: {},
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      // A process group of its own, so a kill reaches anything it managed to start.
      detached: true,
      ...(runsAsRoot() ? { uid: NOBODY, gid: NOBODY } : {}),
    });

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      if (result || ended) return;
      ended = "timeout";
      killGroup();
    }, options.timeoutMs);

    const finish = (value: ExecuteModuleResult) => {
      if (result) return;
      result = value;
      timings.runMs = readyAt === undefined ? 0 : performance.now() - readyAt;
      // The answer is in: whatever the module left running (timers, sockets) is of no interest.
      killGroup();
    };

    const onLine = (line: Buffer) => {
      let message: ChildMessage;
      try {
        message = JSON.parse(line.toString("utf8"), reviveValue) as ChildMessage;
      } catch {
        // Only the model's own code could write a malformed line to fd 3.
        finish(fail("output_invalid", "The sandbox result channel received malformed data.", timings));
        return;
      }
      if (message.type === "ready") {
        readyAt ??= performance.now();
        timings.spawnMs = readyAt - spawnStart;
      } else if (message.type === "result") {
        finish(
          message.ok
            ? { ok: true, value: message.value, timings }
            : fail(message.code, message.message, timings),
        );
      }
    };

    child.stdout?.resume(); // The model may log; its output is not part of the result.
    child.stderr?.on("data", (chunk: Buffer) => {
      stderrTail = Buffer.concat([stderrTail, chunk]);
      if (stderrTail.length > STDERR_TAIL_BYTES) stderrTail = stderrTail.subarray(-STDERR_TAIL_BYTES);
    });
    child.stdio[3]?.on("data", (chunk: Buffer) => {
      if (result || ended) return;
      let rest = chunk;
      for (let newline = rest.indexOf(10); newline !== -1; newline = rest.indexOf(10)) {
        channel.push(rest.subarray(0, newline));
        const line = Buffer.concat(channel);
        channel = [];
        channelBytes = 0;
        rest = rest.subarray(newline + 1);
        onLine(line);
        if (result) return;
      }
      channel.push(rest);
      channelBytes += rest.length;
      // Checked while streaming so a huge reply never sits in the harness's memory.
      if (channelBytes > options.maxOutputBytes + ENVELOPE_BYTES) {
        ended = "output_too_large";
        killGroup();
      }
    });

    child.on("error", (error) => {
      clearTimeout(timer);
      reject(
        new SandboxError("Cannot spawn the sandbox's node process.", {
          cause: error,
          details: process.execPath,
        }),
      );
    });

    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (result) return resolve(result);
      if (readyAt === undefined && !ended) {
        // No model code runs before the runner says "ready": dying earlier is the harness's fault.
        return reject(
          new SandboxError("The sandbox process died before running the module.", {
            details: `exit code ${code}, signal ${signal}; stderr: ${stderrTail.toString("utf8").trim()}`,
          }),
        );
      }
      timings.runMs = readyAt === undefined ? 0 : performance.now() - readyAt;
      resolve(classifyEnd(ended, code, signal, stderrTail.toString("utf8"), options, timings));
    });
  });
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
  // and aborts (SIGABRT); a SIGKILL we did not send is the kernel's OOM killer.
  if (/heap out of memory|Reached heap limit|Allocation failed/i.test(stderr) || signal === "SIGKILL") {
    return fail(
      "memory_limit",
      `The module exceeded the memory limit of ${options.memoryMb} MiB (${signal ?? `exit code ${code}`}).`,
      timings,
    );
  }
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  const tail = stderr.trim().slice(-2_000);
  return fail(
    "process_exit",
    `The sandbox process ${how} before executeSkill returned a result.${tail ? `\n${tail}` : ""}`,
    timings,
  );
}
