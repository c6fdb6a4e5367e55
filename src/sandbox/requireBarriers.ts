import { SandboxError } from "../errors.ts";
import { ensureMemoryBarrier } from "./memoryCgroup.ts";
import { ensureNetworkBarrier } from "./networkBarrier.ts";
import { sandboxRuntime, sandboxRuntimePackage } from "./sandboxRuntime.ts";

/** What {@link requireSandboxBarriers} decided, for the run manifest. */
export type SandboxDecision = {
  /** Barriers an untrusted model needs that this set-up lacks, one line each (empty: none). */
  missing: string[];
  /** True when the run goes on without them because `--unsafe-sandbox` was given. */
  unsafe: boolean;
};

/**
 * Refuse, don't warn (docs/SECURITY.md): decides before a run starts whether this set-up may run
 * the model's code. Only `reference` (the project's own answers) is trusted; a provider model and
 * a `scripted:DIR` directory are untrusted code. An untrusted model needs the network barrier
 * (`node-permission` or `iptables-owner`): without it a module can reach Anvil around the RPC
 * guard and fake its own score. Signals are refused by the child's preload everywhere, files,
 * processes and workers by Node's permission model everywhere; the whole-process memory cap
 * (cgroup, root only) protects the machine, not the scores, so its absence is recorded, not refused.
 *
 * @param model the run's `--model`.
 * @param unsafeSandbox `--unsafe-sandbox`: run anyway; the manifest records it.
 * @throws {SandboxError} naming what is missing and how to get it, when the model is untrusted,
 *   a barrier is missing and `unsafeSandbox` is not set.
 */
export function requireSandboxBarriers(model: string, unsafeSandbox = false): SandboxDecision {
  const missing: string[] = [];
  const network = ensureNetworkBarrier();
  if (network.kind === "none") {
    const runtime = sandboxRuntime();
    missing.push(
      `network (the sandbox's Node is ${runtime.version}: its permission model needs ≥ 25 to deny sockets; install the optional dependency ${sandboxRuntimePackage()} with npm install, or run on Node ≥ 25; ${network.detail})`,
    );
  }
  ensureMemoryBarrier();
  if (missing.length === 0 || model === "reference") return { missing: [], unsafe: false };
  if (unsafeSandbox) return { missing, unsafe: true };
  throw new SandboxError(
    `Refusing to run the untrusted model ${model}: the sandbox lacks a barrier: ${missing.join("; ")}. Pass --unsafe-sandbox to run anyway (results.json then records it; see docs/SECURITY.md).`,
  );
}
