// A harness process of its own for tests that need one: `node --import tsx tests/helpers/sandboxHarness.ts
// MODULE_FILE [--chain]` runs the module in the sandbox (executeModule) and prints one JSON line:
// the result, this process's inheritable descriptors at its start and after the run
// (inheritedFds.ts), its peak RSS in KiB (VmHWM), its pid and, with --chain, its Anvil's pid. With
// --chain the module's providerUrl is an RPC guard in front of an Anvil this process starts;
// without, an address nothing serves. Used where the test runner itself must not be the harness:
// descriptors its launcher leaves open, memory measured per process.
import { readFileSync } from "node:fs";
import { executeModule } from "../../src/sandbox/executeModule.ts";
import { listInheritableFds } from "../../src/sandbox/inheritedFds.ts";
import { startRpcGuard } from "../../src/sandbox/rpcGuard.ts";
import { startAnvil } from "../../src/world/anvil.ts";

const [moduleFile, ...flags] = process.argv.slice(2);
const inheritableAtStart = listInheritableFds();
const chain = flags.includes("--chain");
const anvil = chain ? await startAnvil({ chainId: 56 }) : undefined;
const guard = anvil ? await startRpcGuard({ upstreamUrl: anvil.url }) : undefined;
try {
  const result = await executeModule({
    source: readFileSync(moduleFile!, "utf8"),
    providerUrl: guard?.url ?? "http://127.0.0.2:9/none",
    agentAddress: "0x00000000000000000000000000000000000a9e57",
    deployedContracts: {},
    timeoutMs: 120_000,
  });
  const peakRssKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
  const report = {
    result: result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error },
    inheritableAtStart,
    inheritableAtEnd: listInheritableFds(),
    peakRssKb,
    pid: process.pid,
    anvilPid: anvil?.pid,
  };
  process.stdout.write(
    `${JSON.stringify(report, (_key, value) => (typeof value === "bigint" ? String(value) : value))}\n`,
  );
} finally {
  await guard?.close();
  await anvil?.stop();
}
process.exit(0);
