import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import AjvModule from "ajv";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  type Hex,
  http,
  keccak256,
  numberToHex,
  pad,
  parseAbi,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ChainError } from "../src/errors.ts";
import { localBsc } from "../src/protocol/chain.ts";
import type { RunResults } from "../src/results/types.ts";
import { parseRunFlags, UsageError } from "../src/runOptions.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";
import { type AnvilHandle, startAnvil } from "../src/world/anvil.ts";
import { resolveFork } from "../src/world/fork/boot.ts";
import { FORK_KEYS } from "../src/world/fork/provision.ts";
import { redactUrl, scrubUrl, urlSecrets } from "../src/world/fork/redact.ts";
import { findAllowanceSlot, findBalanceSlot, writeTokenBalance } from "../src/world/fork/slots.ts";
import { anvilRpc } from "../src/world/pool.ts";
import { minedReceipt } from "../src/world/receipt.ts";
import { serveWorld } from "../src/world/serve.ts";
import { loadWorld } from "../src/world/world.ts";

const require = createRequire(import.meta.url);
const bin = path.join(PROJECT_ROOT, "bin/questbench.mjs");
const world = loadWorld();

type CliRun = { code: number | null; stdout: string; stderr: string };

/** Runs `npx questbench …` (bin/questbench.mjs) with its own HOME, so Anvil's RPC cache lands in a temp dir. */
function questbench(args: string[], home: string) {
  return new Promise<CliRun>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, HOME: home, QUESTBENCH_OPTIONS: "", QUESTBENCH_MODEL: "" },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A run's exit code and the tail of its output: every failure below shows what the child said. */
const output = (run: CliRun) =>
  `questbench exited ${run.code}\n--- retried ---\n${retryLines(run.stdout)}\n--- stdout (tail) ---\n${run.stdout.slice(-4000)}\n--- stderr (tail) ---\n${run.stderr.slice(-4000)}`;
/** The progress lines that name an infrastructure fault and the attempt run again after it. */
const retryLines = (stdout: string) =>
  stdout
    .split("\n")
    .filter((line) => line.includes("the chain failed under the attempt"))
    .join("\n");

const Ajv = AjvModule as unknown as typeof AjvModule.default;
const validateResults = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, "src/results/results.schema.json"), "utf8")),
);

/**
 * Reads `<dir>/results.json` of `run` and checks it against the committed results JSON Schema; when
 * the run wrote none (it failed), the error carries the run's own output.
 */
function readResults(dir: string, run: CliRun): RunResults {
  let results: RunResults;
  try {
    results = JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8")) as RunResults;
  } catch (error) {
    throw new Error(`no results.json in ${dir} (${(error as Error).message})\n${output(run)}`);
  }
  expect(validateResults(results), JSON.stringify(validateResults.errors)).toBe(true);
  return results;
}

describe("fork URL redaction", () => {
  test("hides userinfo, every query value and key-shaped path segments, keeps host and short segments", () => {
    expect(redactUrl("http://user:secret@127.0.0.1:8545/?apikey=SECRET123")).toBe(
      "http://***@127.0.0.1:8545/?apikey=***",
    );
    expect(redactUrl("https://bsc-mainnet.nodereal.io/v1/64a9df0874fb4a93b9d0a3849de012d3")).toBe(
      "https://bsc-mainnet.nodereal.io/v1/***",
    );
    expect(redactUrl("https://rpc.ankr.com/bsc/0123456789abcdef0123?x=1&key=k#frag")).toBe(
      "https://rpc.ankr.com/bsc/***?x=***&key=***",
    );
    expect(redactUrl("https://bsc-dataseed.bnbchain.org/mainnet-archive-node")).toBe(
      "https://bsc-dataseed.bnbchain.org/mainnet-archive-node",
    );
    expect(redactUrl("not a url")).toBe("<unparseable URL>");
    const url = "http://u:pw-Zx81@127.0.0.1:1/x?apikey=K9sEcReT";
    expect(urlSecrets(url)).toEqual(["K9sEcReT", "pw-Zx81", "u"]);
    expect(scrubUrl(`error sending request for url (${url}); key K9sEcReT`, url)).toBe(
      "error sending request for url (http://***@127.0.0.1:1/x?apikey=***); key ***",
    );
  });
});

describe("--fork-url and --fork-block", () => {
  test("parse a block number or latest (the default), and refuse a block without a URL or a non-HTTP URL", () => {
    expect(parseRunFlags(["--fork-url", "https://bsc.example/v1/k", "--fork-block", "123"])).toMatchObject({
      forkUrl: "https://bsc.example/v1/k",
      forkBlock: 123,
    });
    expect(parseRunFlags(["--fork-url", "http://127.0.0.1:8545"]).forkBlock).toBe("latest");
    expect(parseRunFlags(["--fork-url=http://h", "--fork-block=latest"]).forkBlock).toBe("latest");
    expect(() => parseRunFlags(["--fork-block", "5"])).toThrow(
      new UsageError("--fork-block needs --fork-url"),
    );
    expect(() => parseRunFlags(["--fork-url", "ftp://h"])).toThrow(UsageError);
    expect(() => parseRunFlags(["--fork-url", "http://h", "--fork-block", "-1"])).toThrow(UsageError);
  });

  test("latest is resolved once to the head block, with its hash and the chain id", async () => {
    const served = await serveWorld();
    try {
      await anvilRpc(served.url, "evm_mine");
      const head = await anvilRpc<{ number: Hex; hash: Hex }>(served.url, "eth_getBlockByNumber", [
        "latest",
        false,
      ]);
      expect(await resolveFork({ url: served.url, block: "latest" })).toEqual({
        chainId: 56,
        blockNumber: Number(head.number),
        blockHash: head.hash,
        url: `${served.url}/`,
      });
      const missing = await resolveFork({ url: served.url, block: 10_000_000 }).catch((e) => e);
      expect(missing).toBeInstanceOf(ChainError);
      expect(missing.shortMessage).toBe(`Block 10000000 does not exist at the fork URL ${served.url}/.`);
    } finally {
      await served.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Slot probing on tokens with different storage layouts (compiled here with the npm solc).
// ---------------------------------------------------------------------------------------------

const LAYOUT_TOKENS = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// balances at slot 0, allowances at slot 1 (OpenZeppelin before v5, BEP20 of the local world).
contract SlotZeroToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    constructor() { balanceOf[msg.sender] = 1e18; }
}

/// seven state variables first: balances at slot 7, allowances at slot 8.
contract LaterSlotToken {
    uint256 public a0 = 1; uint256 public a1 = 2; uint256 public a2 = 3; uint256 public a3 = 4;
    uint256 public a4 = 5; uint256 public a5 = 6; uint256 public a6 = 7;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    constructor() { balanceOf[msg.sender] = 2e18; }
}

/// balance is the second member of a struct: hash(holder, 2) + 1; allowances at slot 3.
contract StructToken {
    struct Account { uint64 nonce; uint256 balance; uint32 flags; }
    uint256 public totalSupply = 3e18;
    address public owner;
    mapping(address => Account) internal accounts;
    mapping(address => mapping(address => uint256)) public allowance;
    constructor() { owner = msg.sender; accounts[msg.sender] = Account(5, 3e18, 9); }
    function balanceOf(address a) external view returns (uint256) { return accounts[a].balance; }
}

/// Vyper's HashMap order: keccak(abi.encode(slot, key)); balances at 3, allowances at 4.
contract VyperOrderToken {
    function balanceOf(address a) external view returns (uint256 v) {
        bytes32 k = keccak256(abi.encode(uint256(3), a));
        assembly { v := sload(k) }
    }
    function allowance(address o, address s) external view returns (uint256 v) {
        bytes32 k = keccak256(abi.encode(keccak256(abi.encode(uint256(4), o)), s));
        assembly { v := sload(k) }
    }
}

/// a computed balance (shares × 2): no slot holds balanceOf, probing must say so.
contract ComputedToken {
    mapping(address => uint256) internal shares;
    function balanceOf(address a) external view returns (uint256) { return shares[a] * 2; }
}
`;

function compileLayoutTokens(): Record<string, { abi: Abi; bytecode: Hex }> {
  const solc = require("solc");
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "LayoutTokens.sol": { content: LAYOUT_TOKENS } },
        settings: {
          optimizer: { enabled: true, runs: 200 },
          evmVersion: "cancun",
          outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
        },
      }),
    ),
  );
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length)
    throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"));
  const out: Record<string, { abi: Abi; bytecode: Hex }> = {};
  for (const [name, c] of Object.entries(output.contracts["LayoutTokens.sol"] as Record<string, any>))
    out[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  return out;
}

describe("balance and allowance slots by probing", () => {
  let anvil: AnvilHandle;
  const tokens: Record<string, Address> = {};
  const deployer = privateKeyToAccount(keccak256(numberToHex(0xf0_4c)));
  const erc20 = parseAbi([
    "function balanceOf(address) view returns (uint256)",
    "function allowance(address, address) view returns (uint256)",
  ]);
  const balanceOf = (token: Address, holder: Address) =>
    createPublicClient({ chain: localBsc(anvil.url), transport: http(anvil.url) }).readContract({
      address: token,
      abi: erc20,
      functionName: "balanceOf",
      args: [holder],
    });

  beforeAll(async () => {
    const compiled = compileLayoutTokens();
    anvil = await startAnvil({ chainId: 56 });
    await anvilRpc(anvil.url, "anvil_setBalance", [deployer.address, numberToHex(10n ** 20n)]);
    const chain = localBsc(anvil.url);
    const wallet = createWalletClient({ account: deployer, chain, transport: http(anvil.url) });
    const client = createPublicClient({ chain, transport: http(anvil.url) });
    for (const [name, { abi, bytecode }] of Object.entries(compiled)) {
      const hash = await wallet.deployContract({ abi, bytecode });
      tokens[name] = (await minedReceipt(client, hash)).contractAddress!;
    }
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  test.each([
    [
      "SlotZeroToken",
      { slot: 0, layout: "solidity", offset: 0 },
      { slot: 1, layout: "solidity" },
      10n ** 18n,
    ],
    [
      "LaterSlotToken",
      { slot: 7, layout: "solidity", offset: 0 },
      { slot: 8, layout: "solidity" },
      2n * 10n ** 18n,
    ],
    [
      "StructToken",
      { slot: 2, layout: "solidity", offset: 1 },
      { slot: 3, layout: "solidity" },
      3n * 10n ** 18n,
    ],
    ["VyperOrderToken", { slot: 3, layout: "vyper", offset: 0 }, { slot: 4, layout: "vyper" }, 0n],
  ] as const)(
    "%s: finds the balance and allowance slots, and a storage write funds exactly",
    async (name, balanceSlot, allowanceSlot, deployerBalance) => {
      const token = tokens[name]!;
      const found = await findBalanceSlot({ url: anvil.url, token });
      expect({ slot: found.slot, layout: found.layout, offset: found.offset }).toEqual(balanceSlot);
      const allowance = await findAllowanceSlot({ url: anvil.url, token });
      expect({ slot: allowance.slot, layout: allowance.layout }).toEqual(allowanceSlot);
      // Probing restored every slot it marked: the deployer's balance is untouched.
      expect(await balanceOf(token, deployer.address)).toBe(deployerBalance);

      const holder = privateKeyToAccount(keccak256(numberToHex(0xab_cd))).address;
      const amount = 1_234_567_890_123_456_789_012n;
      await writeTokenBalance({ url: anvil.url, token, slot: found, holder, amount });
      expect(await balanceOf(token, holder)).toBe(amount);
      expect(await balanceOf(token, deployer.address)).toBe(deployerBalance);
    },
  );

  test("the struct token's other members stay as they were when its balance is written", async () => {
    const token = tokens.StructToken!;
    const found = await findBalanceSlot({ url: anvil.url, token });
    await writeTokenBalance({ url: anvil.url, token, slot: found, holder: deployer.address, amount: 77n });
    const base = BigInt(
      keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [deployer.address, 2n])),
    );
    const member = (offset: bigint) =>
      anvilRpc<Hex>(anvil.url, "eth_getStorageAt", [token, pad(numberToHex(base + offset)), "latest"]);
    expect(BigInt(await member(0n))).toBe(5n); // nonce
    expect(BigInt(await member(1n))).toBe(77n); // balance
    expect(BigInt(await member(2n))).toBe(9n); // flags
  });

  test("a computed balance has no slot: probing raises ChainError naming what it tried", async () => {
    const error = await findBalanceSlot({ url: anvil.url, token: tokens.ComputedToken! }).catch((e) => e);
    expect(error).toBeInstanceOf(ChainError);
    expect(error.shortMessage).toBe(`No balance slot of token ${tokens.ComputedToken} found by probing.`);
    expect(error.details).toMatch(/slots 0–50, Solidity and Vyper mapping layouts, struct offsets 0–3/);
  });
});

// ---------------------------------------------------------------------------------------------
// Whole runs on a fork of the local world.
// ---------------------------------------------------------------------------------------------

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A JSON-RPC provider that, like a hosted one, wants its key: Basic auth `user:password` and
 * `?apikey=KEY`, else 401. It forwards to `target` and counts the requests it let through.
 */
async function keyedProxy(target: string, user: string, password: string, key: string) {
  const stats = { accepted: 0, refused: 0 };
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const query = new URL(req.url ?? "/", "http://x").searchParams.get("apikey");
    if (req.headers.authorization !== expected || query !== key) {
      stats.refused += 1;
      res.writeHead(401).end("unauthorized");
      return;
    }
    stats.accepted += 1;
    try {
      const upstream = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      });
      res.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
    } catch {
      // The world stopped while a fork still asked (the run is over): a gateway error, not a crash of the test.
      res.writeHead(502).end("upstream gone");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, stats, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Every file below `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe("npx questbench --fork-url", () => {
  test("skips, with a reason, a task whose pre-state cannot be provisioned, and leaves it out of the maxima", async () => {
    // A chain where PancakeSquad #1 does not exist: it cannot be moved to the agent.
    const served = await serveWorld();
    try {
      const owners1 = keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [1n, 0n]));
      await anvilRpc(served.url, "anvil_setStorageAt", [world.contracts.pancake_squad, owners1, pad("0x0")]);
      await anvilRpc(served.url, "evm_mine");
      const block = Number(await anvilRpc<Hex>(served.url, "eth_blockNumber"));
      const home = mkdtempSync(path.join(tmpdir(), "qb-fork-home-"));
      const out = mkdtempSync(path.join(tmpdir(), "qb-fork-skip-"));
      const run = await questbench(
        [
          "--fork-url",
          served.url,
          "--fork-block",
          String(block),
          "--tasks",
          "erc721_safe_transfer,bnb_transfer_basic",
          "--out",
          out,
        ],
        home,
      );
      expect(run.code, output(run)).toBe(0);
      const results = readResults(out, run);
      // Named before any instance ran, and again with the totals.
      expect(run.stdout).toContain(
        "Skipped on this fork, before the run (their world cannot be provisioned here; not scored): 1 task(s)\n  erc721_safe_transfer: fork pre-state not provisioned: agent owns PancakeSquad #1: ",
      );
      expect(run.stdout.indexOf("Skipped on this fork")).toBeLessThan(
        run.stdout.indexOf("✓ bnb_transfer_basic"),
      );
      expect(results.skipped).toEqual([
        {
          taskId: "erc721_safe_transfer",
          epoch: 0,
          reason: expect.stringMatching(/^fork pre-state not provisioned: agent owns PancakeSquad #1: /),
        },
      ]);
      expect(results.instances.map((i) => [i.taskId, i.score])).toEqual([["bnb_transfer_basic", 100]]);
      expect(results.summary.total).toEqual({ score: 100, max: 100, passed: 1, count: 1, tasks: 1 });
      expect(results.manifest.fork?.unprovisioned.map((u) => u.id)).toContain("agent owns PancakeSquad #1");
      expect(run.stdout).toMatch(/Skipped on the fork .*: 1 instance\(s\)/);
      expect(run.stdout).toContain("erc721_safe_transfer (epoch 0): fork pre-state not provisioned");
    } finally {
      await served.stop();
    }
  });

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
      expect(all.stdout).toMatch(/Hard\s+8900 \/ 8900\s+89 \/ 89/);
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
