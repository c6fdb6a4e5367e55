import { ensureMemoryBarrier, type MemoryBarrier } from "./memoryCgroup.ts";
import { ensureNetworkBarrier, type NetworkBarrier } from "./networkBarrier.ts";
import { requireSandboxBarriers } from "./requireBarriers.ts";

/** The OS barriers a run installed around sandboxed code, as the run manifest records them. */
export type InstalledBarriers = {
  network: NetworkBarrier;
  memory: MemoryBarrier;
  /** Present when the run was started with `--unsafe-sandbox`: the barriers it goes without (may be empty). */
  unsafe?: string[];
};

/**
 * Installs the OS barriers around sandboxed code once for the run (docs/SECURITY.md, "The
 * barriers"): the network barrier (the iptables rule when root on Linux) and the memory cgroup
 * hierarchy. Whether this set-up may run the model at all is decided before, by
 * `requireSandboxBarriers` (docs/SECURITY.md, "Refuse, don't warn"); with `--unsafe-sandbox` the
 * barriers the run goes without are recorded here.
 * @param options.model the run's `--model`.
 * @param options.unsafeSandbox `--unsafe-sandbox`.
 * @returns what is in force, for the run manifest.
 */
export function installBarriers(options: {
  model: string;
  unsafeSandbox?: boolean | undefined;
}): InstalledBarriers {
  return {
    network: ensureNetworkBarrier(),
    memory: ensureMemoryBarrier(),
    // --unsafe-sandbox: the barriers this run goes without are recorded (and marked in reports).
    ...(options.unsafeSandbox ? { unsafe: requireSandboxBarriers(options.model, true).missing } : {}),
  };
}
