// `node --import tsx scripts/sandboxSamples.ts ROOT SAMPLES`: cold sandbox executions with the
// sandbox code of the project at ROOT (this tree, or a baseline checkout of `npm run bench --
// --baseline REF`), printed as one JSON line `{ "bootMs": [...], "runMs": [...] }` (milliseconds).
// The bench's sandbox section runs it from both trees in turn (scripts/bench.ts), so one call
// compares a change's sandbox start and module run with the code before it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [root = ".", samples = "10"] = process.argv.slice(2);
const load = (file: string) => import(pathToFileURL(path.resolve(root, file)).href);
const { executeModule, setWarmSandboxChildren } = await load("src/sandbox/executeModule.ts");
const { startRpcGuard } = await load("src/sandbox/rpcGuard.ts");
const { startAnvil } = await load("src/world/anvil.ts");

const MODULE = `import { ethers } from "ethers";
export async function executeSkill(providerUrl) {
  const provider = new ethers.JsonRpcProvider(providerUrl, undefined, { staticNetwork: true });
  return { chainId: await provider.send("eth_chainId", []) };
}`;

/** CPU time of this process's reaped children in ms (cutime + cstime at 100 ticks/s); NaN off Linux. */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

setWarmSandboxChildren(0);
const anvil = await startAnvil({ chainId: 56 });
const guard = await startRpcGuard({ upstreamUrl: anvil.url });
const figures = { bootMs: [] as number[], runMs: [] as number[], childCpuMs: 0 };
const cpuBefore = childrenCpuMs();
try {
  for (let i = 0; i < Number(samples); i++) {
    const result = await executeModule({
      source: MODULE,
      providerUrl: guard.url,
      agentAddress: "0x",
      deployedContracts: {},
    });
    if (!result.ok) throw new Error(`sandbox sample failed: ${result.error.message}`);
    figures.bootMs.push(result.timings.spawnMs);
    figures.runMs.push(result.timings.runMs);
  }
  // Each child is disposed (killed) after its result; let the last ones be reaped.
  await new Promise((resolve) => setTimeout(resolve, 200));
  figures.childCpuMs = (childrenCpuMs() - cpuBefore) / Number(samples);
} finally {
  await guard.close();
  await anvil.stop();
}
process.stdout.write(`${JSON.stringify(figures)}\n`);
process.exit(0);
