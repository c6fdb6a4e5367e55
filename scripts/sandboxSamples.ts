// `node --import tsx scripts/sandboxSamples.ts ROOT SAMPLES`: cold sandbox executions with the
// sandbox code of the project at ROOT (this tree, or a baseline checkout of `npm run bench --
// --baseline REF`), printed as one JSON line `{ "bootMs": [...], "runMs": [...] }` (milliseconds).
// The bench's sandbox section runs it from both trees in turn (scripts/bench.ts), so one call
// compares a change's sandbox start and module run with the code before it.
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

setWarmSandboxChildren(0);
const anvil = await startAnvil({ chainId: 56 });
const guard = await startRpcGuard({ upstreamUrl: anvil.url });
const figures = { bootMs: [] as number[], runMs: [] as number[] };
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
} finally {
  await guard.close();
  await anvil.stop();
}
process.stdout.write(`${JSON.stringify(figures)}\n`);
process.exit(0);
