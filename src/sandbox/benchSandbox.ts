import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { median } from "../median.ts";
import { startAnvil } from "../world/anvil.ts";
import { executeModule, setWarmSandboxChildren } from "./executeModule.ts";
import { startRpcGuard } from "./rpcGuard.ts";
import { sandboxLibraries } from "./sandboxLibraries.ts";
import { overrideSandboxRuntime, sandboxRuntime } from "./sandboxRuntime.ts";

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
 * @returns one entry per runtime: the harness's Node first when it can boot the runner (Node ≥ 25), then the sandbox runtime when it differs.
 */
export async function measureSandboxOverhead(providerUrl: string, samples = 20): Promise<SandboxOverhead[]> {
  const sandbox = sandboxRuntime();
  const runtimes = [
    ...(harnessNodeRunsRunner() ? [process.execPath] : []),
    ...(sandbox.execPath !== process.execPath ? [sandbox.execPath] : []),
  ];
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

/**
 * True when the harness's own Node can boot the sandbox runner: Node ≥ 25. On Node 20 the runner's
 * lockdown stops its child before it is ready (Node 20's fetch loads worker_threads late, which
 * assigns the locked process.chdir), so the old-runtime figures are left out there.
 */
function harnessNodeRunsRunner(): boolean {
  return Number(process.versions.node.split(".")[0]) >= 25;
}

/** Wall time of one `questbench --model reference` run (both splits) in a child process. */
function timeReferenceRun(out: string, env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      path.join(sandboxLibraries().projectRoot, "bin", "questbench.mjs"),
      "--model",
      "reference",
      "--out",
      out,
      "--fresh",
    ],
    { env, stdio: "ignore" },
  );
  if (run.status !== 0) throw new Error(`reference run exited with ${run.status} (${out})`);
  return performance.now() - start;
}

/**
 * The bench's sandbox section (`npm run bench -- --sections sandbox`): per-execution overhead of
 * the old runtime (the harness's Node, no network denial) against the sandbox runtime, cold, and
 * the full reference run's wall time with each (`runs` runs each, alternating), as a ratio.
 * @param say prints one line of the bench report.
 */
export async function benchSandbox(say: (line: string) => void, runs = 1): Promise<void> {
  say("\nSandbox runtime: per-execution overhead (cold child, median) and the full reference run");
  say(
    `  load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const anvil = await startAnvil({ chainId: 56 });
  const guard = await startRpcGuard({ upstreamUrl: anvil.url });
  try {
    for (const f of await measureSandboxOverhead(guard.url, 20))
      say(`  ${f.runtime.padEnd(28)} boot ${f.bootMs} ms, module run ${f.runMs} ms (median of ${f.samples})`);
  } finally {
    await guard.close();
    await anvil.stop();
  }
  const sandbox = sandboxRuntime();
  if (sandbox.execPath === process.execPath) return;
  if (!harnessNodeRunsRunner()) {
    say(`  node ${process.version} (the harness's) cannot boot the sandbox runner: no old-runtime figures`);
    return;
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "qb-bench-sandbox-"));
  const walls = { old: [] as number[], new: [] as number[] };
  for (let i = 0; i < runs; i++) {
    walls.old.push(
      timeReferenceRun(path.join(scratch, `old-${i}`), {
        ...process.env,
        QUESTBENCH_SANDBOX_NODE: process.execPath,
      }),
    );
    walls.new.push(
      timeReferenceRun(path.join(scratch, `new-${i}`), { ...process.env, QUESTBENCH_SANDBOX_NODE: "" }),
    );
  }
  const [before, after] = [median(walls.old), median(walls.new)];
  say(
    `  full reference run: node ${process.version} ${(before / 1000).toFixed(1)} s, ${sandbox.version} ${(after / 1000).toFixed(1)} s, ratio ${(after / before).toFixed(3)} (median of ${runs}; load average ${os.loadavg()[0]!.toFixed(2)})`,
  );
  fs.rmSync(scratch, { recursive: true, force: true });
}
