import { MAX_CHILD_MESSAGE_CHARS } from "./childMessages.ts";
import { cleanText } from "./cleanText.ts";
import type { ExecuteModuleResult, ExecuteModuleTimings } from "./executeResult.ts";
import { ensureMemoryBarrier } from "./memoryCgroup.ts";
import { ensureNetworkBarrier } from "./networkBarrier.ts";
import { sandboxStage } from "./stage.ts";
import { transpileModule } from "./transpile.ts";
import { runsAsRoot } from "./uids.ts";
import { DEFAULT_MEMORY_MB, takeChild } from "./warmPool.ts";

// One execution, start to end. The parts live apart: the uids (uids.ts), the warm pool
// (warmPool.ts), the child process and its protocol (childProcess.ts, childMessages.ts, rpcBridge.ts),
// how an ending is classified (exitClassification.ts). Re-exported here for the layers above.
export type { ExecuteModuleErrorCode, ExecuteModuleResult, ExecuteModuleTimings } from "./executeResult.ts";
export { allocateSandboxUid, releaseSandboxUid } from "./uids.ts";
export { fillWarmSandboxChildren, setWarmSandboxChildren } from "./warmPool.ts";

/** Parameters of {@link executeModule}. */
export type ExecuteModuleParameters = {
  /** TypeScript of the model's code block; must export `executeSkill(providerUrl, agentAddress, deployedContracts)`. */
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

export type ExecuteModuleReturnType = ExecuteModuleResult;

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
 * Source: docs/SECURITY.md, "The barriers".
 *
 * @returns `{ ok: true, value, timings }` or `{ ok: false, error: { code, message }, timings }`;
 *   every failure of the model's code is a result.
 * @throws {SandboxError} on harness faults: the temp folder cannot be written,
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
