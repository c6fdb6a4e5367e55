import { executeModule, setWarmSandboxChildren } from "./executeModule.ts";
import { overrideSandboxRuntime, sandboxRuntime } from "./sandboxRuntime.ts";

/** Median of a non-empty list. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One runtime's figures: medians in milliseconds over `samples` cold executions. */
export type SandboxOverhead = {
  runtime: string;
  /** Spawn until the child has preloaded ethers and says "ready" (the boot a warm child hides). */
  bootMs: number;
  /** Handing over the module until its result: import, run, one bridged eth_chainId, reply. */
  runMs: number;
  samples: number;
};

const MODULE = `import { ethers } from "ethers";
export async function executeSkill(providerUrl) {
  const provider = new ethers.JsonRpcProvider(providerUrl, undefined, { staticNetwork: true });
  return { chainId: await provider.send("eth_chainId", []) };
}`;

/**
 * Per-execution sandbox overhead of the harness's own Node against the sandbox runtime
 * (src/sandbox/sandboxRuntime.ts), measured cold (no warm children) on a stub JSON-RPC endpoint
 * served by `providerUrl`. Runtimes alternate sample by sample, so machine load hits both alike.
 * @param providerUrl an RPC guard URL (see startRpcGuard) answering `eth_chainId`.
 * @returns one entry per runtime: the harness's Node first, then the sandbox runtime when it differs.
 */
export async function measureSandboxOverhead(providerUrl: string, samples = 20): Promise<SandboxOverhead[]> {
  const sandbox = sandboxRuntime();
  const runtimes = [process.execPath, ...(sandbox.execPath !== process.execPath ? [sandbox.execPath] : [])];
  const figures = runtimes.map(() => ({ boot: [] as number[], run: [] as number[] }));
  const names: string[] = [];
  setWarmSandboxChildren(0);
  try {
    for (let sample = 0; sample < samples; sample++) {
      for (const [index, execPath] of runtimes.entries()) {
        const runtime = overrideSandboxRuntime(execPath);
        names[index] = `node ${runtime.version}${runtime.deniesNetwork ? " (no network)" : ""}`;
        const result = await executeModule({
          source: MODULE,
          providerUrl,
          agentAddress: "0x",
          deployedContracts: {},
        });
        if (!result.ok) throw new Error(`sandbox bench module failed: ${result.error.message}`);
        figures[index]!.boot.push(result.timings.spawnMs);
        figures[index]!.run.push(result.timings.runMs);
      }
    }
  } finally {
    overrideSandboxRuntime(undefined);
    setWarmSandboxChildren(2);
  }
  return figures.map((f, index) => ({
    runtime: names[index]!,
    bootMs: Math.round(median(f.boot) * 10) / 10,
    runMs: Math.round(median(f.run) * 10) / 10,
    samples,
  }));
}
