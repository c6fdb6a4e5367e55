import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
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
  parseEther,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ChainError } from "../src/errors.ts";
import { localBsc } from "../src/protocol/chain.ts";
import { parseRunFlags, UsageError } from "../src/runOptions.ts";
import { type AnvilHandle, startAnvil } from "../src/world/anvil.ts";
import { ALLOWANCES, HOLDINGS, NATIVE_BALANCES, STAKES } from "../src/world/catalogue.ts";
import { resolveFork, scrubReport } from "../src/world/fork/boot.ts";
import { provisionFork } from "../src/world/fork/provision.ts";
import { redactUrl, scrubUrl, urlSecrets } from "../src/world/fork/redact.ts";
import { findAllowanceSlot, findBalanceSlot, writeTokenBalance } from "../src/world/fork/slots.ts";
import { anvilRpc } from "../src/world/pool.ts";
import { minedReceipt } from "../src/world/receipt.ts";
import { serveWorld } from "../src/world/serve.ts";
import { loadWorld } from "../src/world/world.ts";
import { output, questbench, readResults } from "./helpers/fork.ts";

const require = createRequire(import.meta.url);
const world = loadWorld();

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

  test("the provisioning report that reaches results.json quotes no credential of the fork URL", () => {
    const url = "https://bsc.example/v1/0123456789abcdef0123?apikey=K9sEcReT";
    const leak = `error sending request for url (${url})`;
    const report = {
      slots: {},
      pairs: {},
      pancakeSquadPreviousOwner: null,
      requirements: [
        { id: "agent holds 5 CAKE", keys: [], ok: false, detail: `plant cake: ${leak}` },
        { id: "rich holds 7 BUSD", keys: [], ok: true, detail: "7 BUSD" },
      ],
      errors: { "plant cake": leak },
      timings: { probeMs: 1, provisionMs: 2 },
    } as unknown as Parameters<typeof scrubReport>[0];
    const scrubbed = scrubReport(report, url);
    const text = JSON.stringify(scrubbed);
    for (const secret of urlSecrets(url)) expect(text).not.toContain(secret);
    expect(scrubbed.errors["plant cake"]).toBe(
      "error sending request for url (https://bsc.example/v1/***?apikey=***)",
    );
    expect(scrubbed.requirements.map((r) => r.detail)).toEqual([
      "plant cake: error sending request for url (https://bsc.example/v1/***?apikey=***)",
      "7 BUSD",
    ]);
    expect(JSON.stringify(report)).toContain("K9sEcReT");
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
});

describe("provisionFork", () => {
  test("refuses a fork that is not the chain it was asked to provision, before touching it", async () => {
    const anvil = await startAnvil({ chainId: 56 });
    try {
      const refused = await provisionFork({ url: anvil.url, chainId: 97 }).catch((e) => e);
      expect(refused).toBeInstanceOf(ChainError);
      expect(refused.shortMessage).toBe("Fork provisioning was asked for chain 97; the fork is chain 56.");
    } finally {
      await anvil.stop();
    }
  });

  test("plants and checks the holdings it is given: a custom catalogue's extra holding reaches the fork; the other lists stay the built-in ones", async () => {
    const served = await serveWorld();
    const fork = await startAnvil({ forkUrl: served.url, chainId: 56 });
    try {
      const extra = { holder: "rich", token: "busd", amount: "7" } as const;
      const { world: forked, report } = await provisionFork({
        url: fork.url,
        chainId: 56,
        holdings: [...HOLDINGS, extra],
      });
      expect(report.requirements.filter((r) => !r.ok)).toEqual([]);
      expect(report.requirements.find((r) => r.id === "rich holds 7 BUSD")).toMatchObject({
        ok: true,
        keys: ["busd", "rich_address"],
      });
      const chain = onChain(fork.url, forked);
      expect(await chain.balanceOf("busd", "rich")).toBe(wei("7"));
      // Allowances, stakes and BNB not given: the built-in lists, as the local world has them.
      for (const a of ALLOWANCES)
        expect(await chain.allowance(a.token, a.owner, a.spender)).toBe(wei(a.amount));
      for (const s of STAKES) expect(await chain.staked(s.pool, s.holder)).toBe(wei(s.amount));
      for (const [name, amount] of Object.entries(NATIVE_BALANCES))
        expect(await chain.bnb(name), name).toBe(wei(amount!));
      expect(forked.constants.agentStakedLpwuWei).toBe(world.constants.agentStakedLpwuWei);
      expect(forked.constants.richAllowanceToAgentWei).toBe(world.constants.richAllowanceToAgentWei);
    } finally {
      await fork.stop();
      await served.stop();
    }
  }, 600_000);

  test("grants, stakes and funds what its allowances, stakes and BNB balances say, and checks those, not the built-in lists", async () => {
    const served = await serveWorld();
    const fork = await startAnvil({ forkUrl: served.url, chainId: 56 });
    try {
      const { world: forked, report } = await provisionFork({
        url: fork.url,
        chainId: 56,
        allowances: [
          { owner: "rich", token: "busd", spender: "flashloan_contract", amount: "3" },
          { owner: "agent", token: "cake", spender: "pancake_router", amount: "4" },
        ],
        // A stake of a canonical token (planted by storage write) and a smaller LP stake.
        stakes: [
          { holder: "agent", pool: "simple_staking", token: "cake", amount: "10" },
          { holder: "agent", pool: "simple_reward_pool", token: "pair_wbnb_usdt", amount: "0.25" },
        ],
        // Rich not named: it holds no BNB, yet it had gas for its approval.
        nativeBalances: { agent: "42" },
      });
      expect(report.requirements.filter((r) => !r.ok)).toEqual([]);
      const ids = report.requirements.map((r) => r.id);
      expect(ids).toEqual(
        expect.arrayContaining([
          "rich approved flashloan_contract for 3 BUSD",
          "agent approved pancake_router for 4 CAKE",
          "agent stakes 10 CAKE in simple_staking",
          "agent stakes 0.25 pair_wbnb_usdt in simple_reward_pool",
          "agent holds 42 BNB",
        ]),
      );
      expect(ids).not.toContain("rich holds 1 BNB");
      expect(ids.filter((id) => id.startsWith("rich approved agent"))).toEqual([]);

      const chain = onChain(fork.url, forked);
      expect(await chain.allowance("busd", "rich", "flashloan_contract")).toBe(wei("3"));
      expect(await chain.allowance("cake", "agent", "pancake_router")).toBe(wei("4"));
      expect(await chain.allowance("usdt", "rich", "agent")).toBe(0n);
      expect(await chain.staked("simple_staking", "agent")).toBe(wei("10"));
      expect(await chain.staked("simple_reward_pool", "agent")).toBe(wei("0.25"));
      // The staked CAKE came on top of the agent's 100, as the LP stake comes on top of its 2 LPwu.
      expect(await chain.balanceOf("cake", "agent")).toBe(wei("100"));
      expect(await chain.balanceOf("pair_wbnb_usdt", "agent")).toBe(wei("2"));
      expect(await chain.bnb("agent")).toBe(wei("42"));
      expect(await chain.bnb("rich")).toBe(0n);
      // The constants describe the chain provisioned, not the built-in lists.
      expect(forked.constants.agentStakedLpwuWei).toBe(wei("0.25").toString());
      expect(forked.constants.richAllowanceToAgentWei).toBe("0");
    } finally {
      await fork.stop();
      await served.stop();
    }
  }, 600_000);
});

/** Whole tokens (18 decimals) in wei. */
const wei = (amount: string) => parseEther(amount);

/** Reads of a provisioned fork by catalogue key and account name. */
function onChain(url: string, forked: typeof world) {
  const client = createPublicClient({ chain: localBsc(url), transport: http(url) });
  const at = (who: string): Address =>
    who === "agent" || who === "rich" || who === "treasury"
      ? forked[who].address
      : (forked.contracts as Record<string, Address>)[who]!;
  const read = <T>(key: string, signature: string, args: unknown[]) => {
    const abi = parseAbi([signature]) as Abi;
    const functionName = signature.slice("function ".length, signature.indexOf("("));
    return client.readContract({ address: at(key), abi, functionName, args } as never) as Promise<T>;
  };
  return {
    balanceOf: (token: string, holder: string) =>
      read<bigint>(token, "function balanceOf(address) view returns (uint256)", [at(holder)]),
    allowance: (token: string, owner: string, spender: string) =>
      read<bigint>(token, "function allowance(address, address) view returns (uint256)", [
        at(owner),
        at(spender),
      ]),
    /** The staked amount: the first word of the pool's `userInfo`. */
    staked: (pool: string, holder: string) =>
      read<bigint>(pool, "function userInfo(address) view returns (uint256)", [at(holder)]),
    bnb: (who: string) => client.getBalance({ address: at(who) }),
  };
}
