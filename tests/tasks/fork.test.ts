import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Hex, numberToHex, pad } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunResults } from "../../src/results/types.ts";
import { PROJECT_ROOT } from "../../src/tasks/load.ts";
import { FORK_KEYS } from "../../src/world/fork/context.ts";
import { anvilRpc } from "../../src/world/pool.ts";
import { loadWorld } from "../../src/world/world.ts";
import { bin, type CliRun } from "../helpers/cli.ts";
import { filesUnder, freePort, keyedProxy, output, questbench, readResults } from "../helpers/fork.ts";

// Every task of both splits on a fork (README "Fork mode"): a per-task sweep, in the tasks tier
// (`npm run test:tasks`) beside the reference and cases suites. tests/fork.test.ts keeps the fork's
// parts (probing, provisioning, skipping, redaction) in the unit suite.
const world = loadWorld();

describe("npx questbench --fork-url", () => {
  describe("the whole benchmark on a fork of `questbench world`, through a keyed URL", () => {
    const user = "qbuser";
    const password = "pw-Zx81qb";
    const apiKey = "SECRET123qbKEY";
    const home = mkdtempSync(path.join(tmpdir(), "qb-fork-home-"));
    const out = mkdtempSync(path.join(tmpdir(), "qb-fork-full-"));
    let server: ChildProcess;
    let worldUrl = "";
    let proxy: Awaited<ReturnType<typeof keyedProxy>>;
    let forkUrl = "";
    let run: CliRun;
    let results: RunResults;
    let all: CliRun | undefined;
    let wallMs = 0;
    /** A run's arguments: the keyed fork of the world at its snapshot block, results into `out`. */
    const onTheFork = (...more: string[]) => [
      "--fork-url",
      forkUrl,
      "--fork-block",
      String(world.snapshot.blockNumber),
      "--out",
      out,
      ...more,
    ];
    /** The run's instances left unscored by a chain failure or run again after one: there must be none. */
    const retried = (r: RunResults) =>
      r.instances.filter((i) => i.infraRetries || i.failure?.class === "infra_error").map((i) => i.taskId);

    beforeAll(async () => {
      const port = await freePort();
      server = spawn(process.execPath, [bin, "world", "--port", String(port)], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, HOME: home },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let log = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`questbench world did not start: ${log}`)), 60_000);
        server.stdout!.on("data", (chunk) => {
          log += chunk;
          if (log.includes("Press Ctrl-C")) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      worldUrl = /listening on (http:\/\/\S+)/.exec(log)![1]!;
      proxy = await keyedProxy(worldUrl, user, password, apiKey);
      forkUrl = `http://${user}:${password}@127.0.0.1:${proxy.port}/?apikey=${apiKey}`;
      const t0 = performance.now();
      // The default split: the paper's 107.
      run = await questbench(onTheFork("--model", "reference", "--junit", path.join(out, "junit.xml")), home);
      wallMs = performance.now() - t0;
      results = readResults(out, run);
    }, 900_000);
    afterAll(async () => {
      server?.kill("SIGTERM");
      await proxy?.close();
    });

    test("the default split scores 10700/10700 with the reference model, exit 0, no retries", () => {
      expect(run.code, output(run)).toBe(0);
      expect(results.summary.total, output(run)).toEqual({
        score: 10700,
        max: 10700,
        passed: 107,
        count: 107,
        tasks: 107,
      });
      expect(results.summary.hard?.total.count).toBe(0);
      expect(results.skipped).toBeUndefined();
      expect(retried(results), output(run)).toEqual([]);
      expect(run.stdout).not.toContain("Infrastructure retries");
      expect(run.stdout).toMatch(/Paper total\s+10700 \/ 10700\s+107 \/ 107/);
      console.log(
        `fork run: ${Math.round(wallMs / 1000)} s wall; probing ${results.manifest.fork?.timings.probeMs} ms, provisioning ${results.manifest.fork?.timings.provisionMs} ms`,
      );
    });

    test("records the pinned block, its hash, the chain id and the redacted URL", async () => {
      const block = await anvilRpc<{ hash: string }>(worldUrl, "eth_getBlockByNumber", [
        numberToHex(world.snapshot.blockNumber),
        false,
      ]);
      expect(results.manifest.fork).toMatchObject({
        chainId: 56,
        blockNumber: world.snapshot.blockNumber,
        blockHash: block.hash,
        url: `http://***@127.0.0.1:${proxy.port}/?apikey=***`,
        unprovisioned: [],
      });
      expect(results.manifest.worldId).toMatch(/^sha256:/);
      expect(results.manifest.worldId).not.toBe(world.worldId);
      // Anvil's on-disk RPC cache for this chain and block (README "Fork mode").
      expect(
        existsSync(path.join(home, `.foundry/cache/rpc/bsc/${world.snapshot.blockNumber}/storage.json`)),
      ).toBe(true);
    });

    test("provisioned through probing, not the local world's build: slots found, own agent, new contracts", async () => {
      // The local BEP-20s keep balances at slot 0 and allowances at slot 1 (world.json storageSlots).
      for (const key of ["usdt", "busd", "cake", "wbnb"] as const)
        expect(results.manifest.fork?.slots[key]).toEqual({
          balance: { slot: 0, layout: "solidity", offset: 0 },
          allowance: { slot: 1, layout: "solidity" },
        });
      const forkAgent = privateKeyToAccount(FORK_KEYS.agent).address;
      expect(forkAgent).not.toBe(world.agent.address);
      // On the forked chain itself the fork agent holds nothing: every holding was written on the fork.
      const usdt = await anvilRpc<Hex>(worldUrl, "eth_call", [
        { to: world.contracts.usdt, data: `0x70a08231${pad(forkAgent).slice(2)}` },
        "latest",
      ]);
      expect(BigInt(usdt)).toBe(0n);
      const prompts = results.instances.map((i) => i.prompt.map((m) => m.content).join("\n")).join("\n");
      expect(prompts).toContain(forkAgent);
      expect(prompts).not.toContain(world.agent.address);
      // Canonical contracts are the fork's own; every auxiliary contract is a new deployment.
      expect(prompts).toContain(world.contracts.usdt);
      for (const key of [
        "erc721_token",
        "simple_reward_pool",
        "flashloan_contract",
        "erc1363_token",
      ] as const)
        expect(prompts).not.toContain(world.contracts[key]);
    });

    test("--split all into the same folder adds the hard split on the fork: 8900 / 8900 beside the kept 10700, exit 0, no retries", async () => {
      const t0 = performance.now();
      all = await questbench(onTheFork("--split", "all"), home);
      const seconds = Math.round((performance.now() - t0) / 1000);
      expect(all.code, output(all)).toBe(0);
      const both = readResults(out, all);
      expect(both.summary.total, output(all)).toEqual(results.summary.total);
      expect(both.summary.hard?.total, output(all)).toEqual({
        score: 8900,
        max: 8900,
        passed: 89,
        count: 89,
        tasks: 89,
      });
      expect(both.manifest.selection).toMatchObject({ split: "all", planned: 196, ran: 89, resumed: 107 });
      expect(both.manifest.split).toBe("all");
      expect(both.manifest.fork?.unprovisioned).toEqual([]);
      expect(retried(both), output(all)).toEqual([]);
      expect(all.stdout).not.toContain("Infrastructure retries");
      expect(all.stdout).toMatch(/Hard total\s+8900 \/ 8900\s+89 \/ 89/);
      // The hard world's contracts were deployed and built on the fork, not found in the forked state.
      const prompts = both.instances
        .filter((i) => i.set === "hard")
        .map((i) => i.prompt.map((m) => m.content).join("\n"))
        .join("\n");
      for (const key of ["v3_factory", "usdc", "pair_usdc_usdt", "usdt_vault", "qsteth"] as const)
        expect(prompts).not.toContain(world.contracts[key]);
      console.log(`fork run --split all (the paper's 107 kept): ${seconds} s wall`);
    }, 900_000);

    test("the credentials reached the provider but appear in no output file, stdout or stderr", () => {
      expect(proxy.stats.accepted).toBeGreaterThan(0);
      expect(proxy.stats.refused).toBe(0);
      const files = filesUnder(out);
      expect(files.map((f) => path.basename(f))).toEqual(
        expect.arrayContaining(["results.json", "instances.jsonl", "junit.xml"]),
      );
      const basic = Buffer.from(`${user}:${password}`).toString("base64");
      for (const [name, text] of [
        ...files.map((f) => [f, readFileSync(f, "utf8")] as const),
        ["stdout", run.stdout] as const,
        ["stderr", run.stderr] as const,
        ["stdout of --split all", all?.stdout ?? ""] as const,
        ["stderr of --split all", all?.stderr ?? ""] as const,
      ])
        for (const secret of [password, apiKey, basic, `${user}:`])
          expect(text.includes(secret), `${secret} in ${name}`).toBe(false);
    });
  });
});
