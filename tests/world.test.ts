import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  encodeAbiParameters,
  getAddress,
  type Hex,
  http,
  keccak256,
  maxUint256,
  pad,
  parseAbi,
  parseEther,
  parseSignature,
  toEventSelector,
  toFunctionSelector,
  toHex,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildWorld, checkArtifacts, compileContracts, writeArtifacts } from "../fixtures/build-world.ts";
import { environmentPrompt } from "../src/protocol/prompt.ts";
import * as abis from "../src/world/abis.ts";
import { type AnvilHandle, startAnvil } from "../src/world/anvil.ts";
import { loadArtifact } from "../src/world/artifacts.ts";
import {
  ALLOWANCES,
  CATALOGUE,
  type Catalogue,
  type CatalogueEntry,
  type ContractKey,
  HOLDINGS,
  NATIVE_BALANCES,
  type Placement,
  STAKES,
} from "../src/world/catalogue.ts";
import { catalogueProblems, deploymentOrder, keysOfKind } from "../src/world/catalogueViews.ts";
import { provisionFork } from "../src/world/fork/provision.ts";
import { anvilRpc, primeWorldClock } from "../src/world/pool.ts";
import { minedReceipt } from "../src/world/receipt.ts";
import { serveWorld } from "../src/world/serve.ts";
import { CONTRACT_KEYS, loadWorld, type World, worldJsonPath, worldStatePath } from "../src/world/world.ts";

const require = createRequire(import.meta.url);
const world = loadWorld();
const c = world.contracts;
const A = world.agent.address;
const R = world.rich.address;
const T = world.treasury.address;
const e = (x: string) => parseEther(x);

const chain = defineChain({
  id: 56,
  name: "world",
  nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1"] } },
});

let anvil: AnvilHandle;
let client: ReturnType<typeof makeClient>;
let snapshotId: string;

function makeClient(url: string) {
  return createPublicClient({ chain, transport: http(url), pollingInterval: 10 });
}

async function read(address: Address, abi: Abi, functionName: string, args: unknown[] = []): Promise<any> {
  return client.readContract({ address, abi, functionName, args } as never);
}

/** Signs and sends as `from`, waits for the receipt, returns it (status included). */
async function send(
  from: PrivateKeyAccount,
  to: Address,
  abi: Abi | undefined,
  functionName?: string,
  args: unknown[] = [],
  value?: bigint,
) {
  const wallet = createWalletClient({ account: from, chain, transport: http(anvil.url) });
  const hash = abi
    ? await wallet.writeContract({ address: to, abi, functionName, args, value, gas: 3_000_000n } as never)
    : await wallet.sendTransaction({ to, value, gas: 100_000n } as never);
  return minedReceipt(client, hash);
}

const agent = privateKeyToAccount(world.agent.privateKey);
const rich = privateKeyToAccount(world.rich.privateKey);
const tokenKeys = ["wbnb", "usdt", "busd", "cake", "erc1363_token"] as const;
const pairKeys = keysOfKind("pair") as ContractKey[];

beforeAll(async () => {
  anvil = await startAnvil({ loadState: worldStatePath(), chainId: 56 });
  await primeWorldClock(anvil.url);
  client = makeClient(anvil.url);
  snapshotId = await anvilRpc<string>(anvil.url, "evm_snapshot");
});

afterEach(async () => {
  expect(await anvilRpc(anvil.url, "evm_revert", [snapshotId])).toBe(true);
  await primeWorldClock(anvil.url);
  snapshotId = await anvilRpc<string>(anvil.url, "evm_snapshot");
});

afterAll(async () => {
  await anvil?.stop();
});

describe("address book", () => {
  it("has exactly the 30 deployedContracts keys, checksummed, with code except rich_address", async () => {
    expect(Object.keys(c).sort()).toEqual([...CONTRACT_KEYS].sort());
    for (const key of CONTRACT_KEYS) {
      expect(getAddress(c[key])).toBe(c[key]);
      const code = await client.getCode({ address: c[key] });
      if (key === "rich_address") expect(code ?? "0x").toBe("0x");
      else expect(code?.length, key).toBeGreaterThan(2);
    }
    expect(c.rich_address).toBe(R);
  });

  it("places the BSC contracts at their canonical mainnet addresses", () => {
    expect(c).toMatchObject({
      wbnb: "0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c",
      usdt: "0x55d398326f99059fF775485246999027B3197955",
      busd: "0xe9e7CEA3DedcA5984780Bafc599bD69ADd087D56",
      cake: "0x0E09FaBB73Bd3Ade0a17ECC321fD13a19e81cE82",
      pancake_router: "0x10ED43C718714eb63d5aA57B78B54704E256024E",
      pancake_factory: "0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73",
      pancake_squad: "0x0a8901b0E25DEb55A87524f0cC164E9644020EBA",
      multicall3: "0xcA11bde05977b3631167028862bE2a173976CA11",
    });
  });

  it("uses no Anvil dev key and keeps the snapshot head, worldId and time fixed", async () => {
    const devKey = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
    for (const who of [world.agent, world.rich, world.treasury]) expect(who.privateKey).not.toBe(devKey);
    const head = await client.getBlock();
    expect(Number(head.number)).toBe(world.snapshot.blockNumber);
    expect(Number(head.timestamp)).toBe(world.snapshot.timestamp);
    const genesis = await client.getBlock({ blockNumber: 0n });
    expect(Number(genesis.timestamp)).toBe(world.genesisTimestamp);
    const stateHash = (await import("node:crypto"))
      .createHash("sha256")
      .update(readFileSync(worldStatePath()));
    expect(world.worldId).toBe(`sha256:${stateHash.digest("hex")}`);
    expect(await client.getChainId()).toBe(56);
  });
});

describe("holdings (docs/TASKS.md: accounts and holdings)", () => {
  it("gives the agent exactly its BNB, tokens, LP, stake and NFTs", async () => {
    expect(await client.getBalance({ address: A })).toBe(e("100"));
    const bal = (token: Address, who: Address = A) => read(token, abis.erc20Abi, "balanceOf", [who]);
    expect(await bal(c.usdt)).toBe(e("1000"));
    expect(await bal(c.busd)).toBe(e("1000"));
    expect(await bal(c.cake)).toBe(e("100"));
    expect(await bal(c.wbnb)).toBe(e("100"));
    expect(await bal(c.erc1363_token)).toBe(e("1000000"));
    expect(await bal(c.pair_usdt_busd)).toBe(e("2"));
    expect(await bal(c.pair_wbnb_usdt)).toBe(e("2"));
    for (const key of pairKeys.filter((k) => k !== "pair_usdt_busd" && k !== "pair_wbnb_usdt")) {
      expect(await bal(c[key]), key).toBe(0n);
    }
    const [amount, rewardDebt, lastUpdate] = await read(
      c.simple_reward_pool,
      abis.rewardPoolAbi,
      "userInfo",
      [A],
    );
    expect([amount, rewardDebt]).toEqual([e("0.5"), 0n]);
    expect(Number(lastUpdate)).toBe(world.snapshot.timestamp - 3600);
    expect(Number(lastUpdate)).toBe(world.constants.stakeTimestamp);
    expect(await read(c.simple_staking, abis.simpleStakingAbi, "userInfo", [A])).toEqual([0n, 0n]);
    expect(await read(c.simple_lp_staking, abis.simpleStakingAbi, "userInfo", [A])).toEqual([0n, 0n]);
    for (let id = 1n; id <= 10n; id++)
      expect(await read(c.erc721_token, abis.erc721Abi, "ownerOf", [id])).toBe(A);
    expect(await read(c.erc721_token, abis.erc721Abi, "balanceOf", [A])).toBe(10n);
    expect(await read(c.pancake_squad, abis.erc721Abi, "ownerOf", [1n])).toBe(A);
    expect(await read(c.pancake_squad, abis.erc721Abi, "balanceOf", [A])).toBe(1n);
    const ids = [1n, 2n, 3n];
    expect(await read(c.erc1155_token, abis.erc1155Abi, "balanceOfBatch", [[A, A, A], ids])).toEqual([
      1000n,
      500n,
      100n,
    ]);
  });

  it("gives R 5,000 USDT, 1 BNB and a 1,000 USDT allowance to A", async () => {
    expect(await read(c.usdt, abis.erc20Abi, "balanceOf", [R])).toBe(e("5000"));
    expect(await client.getBalance({ address: R })).toBe(e("1"));
    expect(await read(c.usdt, abis.erc20Abi, "allowance", [R, A])).toBe(e("1000"));
  });

  it("has the agent grant no allowance or operator approval to anyone", async () => {
    const spenders = [...CONTRACT_KEYS.map((key) => c[key]), T];
    for (const token of [...tokenKeys.map((k) => c[k]), ...pairKeys.map((k) => c[k])]) {
      for (const spender of spenders) {
        expect(await read(token, abis.erc20Abi, "allowance", [A, spender]), `${token} → ${spender}`).toBe(0n);
      }
    }
    for (const operator of spenders) {
      expect(await read(c.erc721_token, abis.erc721Abi, "isApprovedForAll", [A, operator])).toBe(false);
      expect(await read(c.pancake_squad, abis.erc721Abi, "isApprovedForAll", [A, operator])).toBe(false);
      expect(await read(c.erc1155_token, abis.erc1155Abi, "isApprovedForAll", [A, operator])).toBe(false);
    }
  });

  it("funds the reward pool with 10,000 CAKE and the flash-loan pool with 10,000 USDT", async () => {
    expect(await read(c.cake, abis.erc20Abi, "balanceOf", [c.simple_reward_pool])).toBe(e("10000"));
    expect(await read(c.flashloan_contract, abis.flashLoanAbi, "poolBalance", [c.usdt])).toBe(e("10000"));
  });

  it("leaves the treasury every other LP token (only MINIMUM_LIQUIDITY is locked)", async () => {
    for (const key of pairKeys) {
      const supply: bigint = await read(c[key], abis.pairAbi, "totalSupply");
      const agentHeld: bigint = await read(c[key], abis.pairAbi, "balanceOf", [A]);
      const staked: bigint = key === "pair_wbnb_usdt" ? e("0.5") : 0n;
      expect(await read(c[key], abis.pairAbi, "balanceOf", [T]), key).toBe(
        supply - 1000n - agentHeld - staked,
      );
    }
  });

  it("has every holding, allowance and stake of the catalogue on the chain", async () => {
    const who: Record<string, Address> = { agent: A, rich: R, treasury: T, ...c };
    for (const h of HOLDINGS)
      expect(
        await read(c[h.token], abis.erc20Abi, "balanceOf", [who[h.holder]]),
        `${h.holder} ${h.token}`,
      ).toBe(e(h.amount));
    for (const a of ALLOWANCES)
      expect(await read(c[a.token], abis.erc20Abi, "allowance", [who[a.owner], who[a.spender]])).toBe(
        e(a.amount),
      );
    for (const s of STAKES) {
      const [amount] = await read(c[s.pool], CATALOGUE[s.pool].abi!, "userInfo", [who[s.holder]]);
      expect(amount, `${s.holder} in ${s.pool}`).toBe(e(s.amount));
    }
    for (const [name, amount] of Object.entries(NATIVE_BALANCES))
      expect(await client.getBalance({ address: who[name]! }), name).toBe(e(amount!));
  });

  it("has token metadata as world.json says, 18 decimals, non-round supplies, fully backed WBNB", async () => {
    for (const key of tokenKeys) {
      const info = world.tokens[key];
      expect(await read(c[key], abis.erc20Abi, "name")).toBe(info.name);
      expect(await read(c[key], abis.erc20Abi, "symbol")).toBe(info.symbol);
      expect(await read(c[key], abis.erc20Abi, "decimals")).toBe(18);
    }
    for (const key of ["wbnb", "usdt", "busd", "cake"] as const) {
      const supply: bigint = await read(c[key], abis.erc20Abi, "totalSupply");
      expect(supply % e("1"), key).not.toBe(0n);
    }
    expect(await read(c.erc1363_token, abis.erc20Abi, "totalSupply")).toBe(e("10000000"));
    expect(await read(c.wbnb, abis.wbnbAbi, "totalSupply")).toBe(
      await client.getBalance({ address: c.wbnb }),
    );
    expect(await read(c.pancake_squad, abis.erc721Abi, "name")).toBe("Pancake Squad");
    expect(await read(c.pancake_squad, abis.erc721Abi, "symbol")).toBe("PS");
    expect(await read(c.erc721_token, abis.erc721Abi, "name")).toBe("Quest Test NFT");
    expect(await read(c.erc721_token, abis.erc721Abi, "symbol")).toBe("QNFT");
    expect(await read(c.erc1155_token, abis.erc1155Abi, "name")).toBe("Quest Multi Token");
  });
});

describe("DEX (docs/TASKS.md: tokens and DEX)", () => {
  it("orders token0 as the catalogue names the pair, with non-round reserves within 1 % of the build values", async () => {
    for (const key of pairKeys) {
      const place = CATALOGUE[key].place as Extract<Placement, { kind: "pair" }>;
      const [t0, t1] = [c[place.tokenA as ContractKey], c[place.tokenB as ContractKey]];
      expect(await read(c[key], abis.pairAbi, "token0"), key).toBe(t0);
      expect(await read(c[key], abis.pairAbi, "token1"), key).toBe(t1);
      expect(await read(c.pancake_factory, abis.factoryAbi, "getPair", [t0, t1])).toBe(c[key]);
      const [reserve0, reserve1] = await read(c[key], abis.pairAbi, "getReserves");
      for (const [reserve, target] of [
        [reserve0, e(place.amountA)],
        [reserve1, e(place.amountB)],
      ] as const) {
        expect(reserve % e("1"), key).not.toBe(0n);
        const drift = reserve > target ? reserve - target : target - reserve;
        expect(drift * 100n < target, key).toBe(true);
      }
    }
    // Hard-world V2 pairs (placement `built`, seeded by a build step in their tokens' units) are pairs too.
    const builtPairs = keysOfKind("built").filter(
      (key) =>
        (CATALOGUE[key as ContractKey].place as { artifact: string }).artifact ===
        "@uniswap/v2-core/UniswapV2Pair",
    );
    expect(await read(c.pancake_factory, abis.factoryAbi, "allPairsLength")).toBe(
      BigInt(pairKeys.length + builtPairs.length),
    );
    expect(await read(c.pancake_factory, abis.factoryAbi, "feeTo")).toBe(
      "0x0000000000000000000000000000000000000000",
    );
  });

  it("publishes P as the USDT/WBNB reserve ratio", async () => {
    const [usdt, wbnb] = await read(c.pair_wbnb_usdt, abis.pairAbi, "getReserves");
    const [whole, fraction = ""] = world.constants.P.split(".");
    const scaled = BigInt(whole + fraction.padEnd(18, "0"));
    expect(scaled).toBe((usdt * 10n ** 18n) / wbnb);
  });

  it("quotes through the canonical router and its hard-coded init code hash matches the pair code", async () => {
    expect(await read(c.pancake_router, abis.routerAbi, "factory")).toBe(c.pancake_factory);
    expect(await read(c.pancake_router, abis.routerAbi, "WETH")).toBe(c.wbnb);
    const pairArtifact = require("@uniswap/v2-core/build/UniswapV2Pair.json");
    const initCodeHash = keccak256(`0x${pairArtifact.evm.bytecode.object}`);
    const routerCode = (await client.getCode({ address: c.pancake_router }))!;
    expect(routerCode).toContain(initCodeHash.slice(2));
    // getAmountsOut resolves every hop with UniswapV2Library.pairFor (the init code hash).
    const route = [c.cake, c.wbnb, c.usdt, c.busd];
    const amounts: bigint[] = await read(c.pancake_router, abis.routerAbi, "getAmountsOut", [e("2"), route]);
    expect(amounts).toHaveLength(4);
    expect(amounts[3]).toBeGreaterThan(0n);
  });

  it("swaps BNB for USDT at the canonical router for exactly the quote", async () => {
    const path = [c.wbnb, c.usdt];
    const [, quote] = await read(c.pancake_router, abis.routerAbi, "getAmountsOut", [e("0.01"), path]);
    const before: bigint = await read(c.usdt, abis.erc20Abi, "balanceOf", [A]);
    const receipt = await send(
      agent,
      c.pancake_router,
      abis.routerAbi,
      "swapExactETHForTokens",
      [(quote * 95n) / 100n, path, A, BigInt(world.snapshot.timestamp + 600)],
      e("0.01"),
    );
    expect(receipt.status).toBe("success");
    expect(Number((await client.getBlock()).timestamp)).toBe(world.snapshot.timestamp + 1);
    expect((await read(c.usdt, abis.erc20Abi, "balanceOf", [A])) - before).toBe(quote);
    const swaps = receipt.logs.filter((log) => log.address.toLowerCase() === c.pair_wbnb_usdt.toLowerCase());
    const decoded = swaps.map((log) => decodeEventLog({ abi: abis.pairAbi, ...log }));
    expect(decoded.map((d) => d.eventName)).toContain("Swap");
  });

  it("runs a multi-hop token swap after an approval", async () => {
    await send(agent, c.cake, abis.erc20Abi, "approve", [c.pancake_router, e("10")]);
    const route = [c.cake, c.wbnb, c.usdt, c.busd];
    const amounts: bigint[] = await read(c.pancake_router, abis.routerAbi, "getAmountsOut", [e("2"), route]);
    const before: bigint = await read(c.busd, abis.erc20Abi, "balanceOf", [A]);
    const receipt = await send(agent, c.pancake_router, abis.routerAbi, "swapExactTokensForTokens", [
      e("2"),
      1n,
      route,
      A,
      BigInt(world.snapshot.timestamp + 600),
    ]);
    expect(receipt.status).toBe("success");
    expect((await read(c.busd, abis.erc20Abi, "balanceOf", [A])) - before).toBe(amounts[3]);
  });
});

describe("tokens (BEP-20 surface)", () => {
  it("increases and decreases allowances, and refuses to go below zero", async () => {
    await send(agent, c.usdt, abis.bep20Abi, "increaseAllowance", [c.pancake_router, e("150")]);
    await send(agent, c.usdt, abis.bep20Abi, "decreaseAllowance", [c.pancake_router, e("50")]);
    expect(await read(c.usdt, abis.erc20Abi, "allowance", [A, c.pancake_router])).toBe(e("100"));
    const receipt = await send(agent, c.usdt, abis.bep20Abi, "decreaseAllowance", [
      c.pancake_router,
      e("101"),
    ]);
    expect(receipt.status).toBe("reverted");
  });

  it("decrements a finite allowance on transferFrom but never an infinite one", async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await send(agent, c.usdt, abis.erc20Abi, "transferFrom", [R, to, e("10")]);
    expect(await read(c.usdt, abis.erc20Abi, "allowance", [R, A])).toBe(e("990"));
    expect(await read(c.usdt, abis.erc20Abi, "balanceOf", [to])).toBe(e("10"));
    await send(rich, c.usdt, abis.erc20Abi, "approve", [A, maxUint256]);
    await send(agent, c.usdt, abis.erc20Abi, "transferFrom", [R, to, e("10")]);
    expect(await read(c.usdt, abis.erc20Abi, "allowance", [R, A])).toBe(maxUint256);
  });

  it("wraps a plain BNB send to WBNB and unwraps with withdraw", async () => {
    const receipt = await send(agent, c.wbnb, undefined, undefined, [], e("0.25"));
    expect(receipt.status).toBe("success");
    expect(await read(c.wbnb, abis.wbnbAbi, "balanceOf", [A])).toBe(e("100.25"));
    await send(agent, c.wbnb, abis.wbnbAbi, "withdraw", [e("0.25")]);
    expect(await read(c.wbnb, abis.wbnbAbi, "balanceOf", [A])).toBe(e("100"));
  });

  it("has no initializer left to call on the canonical tokens or PancakeSquad", async () => {
    const init = parseAbi(["function initialize(string,string,uint256,address)"]);
    for (const key of ["usdt", "busd", "cake"] as const) {
      const r = await send(agent, c[key], init, "initialize", ["X", "X", e("1000000"), A]);
      expect(r.status, key).toBe("reverted");
    }
    const squadInit = parseAbi(["function initialize(address[])"]);
    expect((await send(agent, c.pancake_squad, squadInit, "initialize", [[A]])).status).toBe("reverted");
  });
});

describe("auxiliary contracts (docs/TASKS.md)", () => {
  it("T1363 burns (supply falls), refuses transfers to 0x0, and accepts an EIP-2612 permit", async () => {
    const supply: bigint = await read(c.erc1363_token, abis.erc20Abi, "totalSupply");
    await send(agent, c.erc1363_token, abis.erc1363TokenAbi, "burn", [e("0.5")]);
    expect(await read(c.erc1363_token, abis.erc20Abi, "totalSupply")).toBe(supply - e("0.5"));
    const zero = "0x0000000000000000000000000000000000000000";
    expect((await send(agent, c.erc1363_token, abis.erc20Abi, "transfer", [zero, 1n])).status).toBe(
      "reverted",
    );

    const domain = {
      name: "Quest 1363 Token",
      version: "1",
      chainId: 56,
      verifyingContract: c.erc1363_token,
    };
    const expected = keccak256(
      encodeAbiParameters(
        [
          { type: "bytes32" },
          { type: "bytes32" },
          { type: "bytes32" },
          { type: "uint256" },
          { type: "address" },
        ],
        [
          keccak256(
            toHex("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
          ),
          keccak256(toHex(domain.name)),
          keccak256(toHex("1")),
          56n,
          c.erc1363_token,
        ],
      ),
    );
    expect(await read(c.erc1363_token, abis.erc1363TokenAbi, "DOMAIN_SEPARATOR")).toBe(expected);
    const owner = rich;
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const deadline = BigInt(world.snapshot.timestamp + 3600);
    const signature = await owner.signTypedData({
      domain,
      types: {
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
        ],
      },
      primaryType: "Permit",
      message: { owner: owner.address, spender, value: e("123.45"), nonce: 0n, deadline },
    });
    const { v, r, s } = parseSignature(signature);
    const receipt = await send(agent, c.erc1363_token, abis.erc1363TokenAbi, "permit", [
      owner.address,
      spender,
      e("123.45"),
      deadline,
      Number(v),
      r,
      s,
    ]);
    expect(receipt.status).toBe("success");
    expect(await read(c.erc1363_token, abis.erc20Abi, "allowance", [owner.address, spender])).toBe(
      e("123.45"),
    );
    expect(await read(c.erc1363_token, abis.erc1363TokenAbi, "nonces", [owner.address])).toBe(1n);
  });

  it("T1363 transferAndCall and approveAndCall reach the receiver, which records them; EOAs revert", async () => {
    const data = toHex("hello");
    await send(agent, c.erc1363_token, abis.erc1363TokenAbi, "transferAndCall", [
      c.erc1363_receiver,
      e("12.5"),
      data,
    ]);
    expect(await read(c.erc1363_token, abis.erc20Abi, "balanceOf", [c.erc1363_receiver])).toBe(e("12.5"));
    expect(await read(c.erc1363_receiver, abis.erc1363ReceiverAbi, "lastTransferFrom")).toBe(A);
    expect(await read(c.erc1363_receiver, abis.erc1363ReceiverAbi, "lastTransferOperator")).toBe(A);
    expect(await read(c.erc1363_receiver, abis.erc1363ReceiverAbi, "lastTransferValue")).toBe(e("12.5"));
    expect(await read(c.erc1363_receiver, abis.erc1363ReceiverAbi, "lastTransferData")).toBe(data);
    await send(agent, c.erc1363_token, abis.erc1363TokenAbi, "approveAndCall", [c.erc1363_receiver, e("7")]);
    expect(await read(c.erc1363_token, abis.erc20Abi, "allowance", [A, c.erc1363_receiver])).toBe(e("7"));
    expect(await read(c.erc1363_receiver, abis.erc1363ReceiverAbi, "lastApprovalOwner")).toBe(A);
    expect(await read(c.erc1363_receiver, abis.erc1363ReceiverAbi, "lastApprovalValue")).toBe(e("7"));
    const eoa = privateKeyToAccount(generatePrivateKey()).address;
    const r = await send(agent, c.erc1363_token, abis.erc1363TokenAbi, "transferAndCall", [eoa, 1n]);
    expect(r.status).toBe("reverted");
  });

  it("QNFT has the fixed tokenURI; PancakeSquad safe transfer calls the receiver, which records it", async () => {
    expect(await read(c.erc721_token, abis.erc721Abi, "tokenURI", [7n])).toBe(
      `${world.constants.erc721TokenUriPrefix}7.json`,
    );
    await send(agent, c.pancake_squad, abis.erc721Abi, "safeTransferFrom", [A, c.nft_receiver, 1n]);
    expect(await read(c.pancake_squad, abis.erc721Abi, "ownerOf", [1n])).toBe(c.nft_receiver);
    expect(await read(c.nft_receiver, abis.nftReceiverAbi, "lastOperator")).toBe(A);
    expect(await read(c.nft_receiver, abis.nftReceiverAbi, "lastFrom")).toBe(A);
    expect(await read(c.nft_receiver, abis.nftReceiverAbi, "lastTokenId")).toBe(1n);
    expect(await read(c.nft_receiver, abis.nftReceiverAbi, "lastCollection")).toBe(c.pancake_squad);
  });

  it("ERC-1155 transfers emit TransferData with the payload", async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const data = toHex("quest payload");
    const receipt = await send(agent, c.erc1155_token, abis.erc1155Abi, "safeTransferFrom", [
      A,
      to,
      1n,
      5n,
      data,
    ]);
    expect(await read(c.erc1155_token, abis.erc1155Abi, "balanceOf", [to, 1n])).toBe(5n);
    const events = receipt.logs.map((log) => decodeEventLog({ abi: abis.erc1155Abi, ...log }));
    const transferData = events.find((event) => event.eventName === "TransferData");
    expect(transferData?.args).toEqual({ from: A, to: getAddress(to), id: 1n, data });
  });

  it("single-token and LP staking record amount and deposit time, and withdraw returns the stake", async () => {
    await send(agent, c.cake, abis.erc20Abi, "approve", [c.simple_staking, e("5")]);
    const receipt = await send(agent, c.simple_staking, abis.simpleStakingAbi, "deposit", [e("5")]);
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    expect(await read(c.simple_staking, abis.simpleStakingAbi, "userInfo", [A])).toEqual([
      e("5"),
      block.timestamp,
    ]);
    await send(agent, c.simple_staking, abis.simpleStakingAbi, "withdraw", [e("2")]);
    expect(await read(c.cake, abis.erc20Abi, "balanceOf", [A])).toBe(e("97"));
    expect(await read(c.simple_lp_staking, abis.simpleStakingAbi, "stakingToken")).toBe(c.pair_usdt_busd);
    await send(agent, c.pair_usdt_busd, abis.pairAbi, "approve", [c.simple_lp_staking, e("0.5")]);
    await send(agent, c.simple_lp_staking, abis.simpleStakingAbi, "deposit", [e("0.5")]);
    expect(await read(c.pair_usdt_busd, abis.pairAbi, "balanceOf", [A])).toBe(e("1.5"));
  });

  it("the reward pool shows 18 CAKE pending at the snapshot and pays it (+0.005 CAKE per second)", async () => {
    const pending: bigint = await read(c.simple_reward_pool, abis.rewardPoolAbi, "pendingReward", [A]);
    expect(pending >= e("17.9") && pending <= e("18.1")).toBe(true);
    expect(await read(c.simple_reward_pool, abis.rewardPoolAbi, "lpToken")).toBe(c.pair_wbnb_usdt);
    await send(agent, c.simple_reward_pool, abis.rewardPoolAbi, "harvest");
    // Mined one second after the snapshot: 0.5 LP × 0.01 CAKE/s × 3,601 s.
    expect(await read(c.cake, abis.erc20Abi, "balanceOf", [A])).toBe(e("100") + e("18.005"));
    expect(await read(c.simple_reward_pool, abis.rewardPoolAbi, "pendingReward", [A])).toBe(0n);
  });

  it("the reward pool's emergencyWithdraw returns the stake and forfeits rewards", async () => {
    await send(agent, c.simple_reward_pool, abis.rewardPoolAbi, "emergencyWithdraw");
    expect(await read(c.pair_wbnb_usdt, abis.pairAbi, "balanceOf", [A])).toBe(e("2.5"));
    expect(await read(c.cake, abis.erc20Abi, "balanceOf", [A])).toBe(e("100"));
    const [amount] = await read(c.simple_reward_pool, abis.rewardPoolAbi, "userInfo", [A]);
    expect(amount).toBe(0n);
  });

  it("the reward pool's withdraw pays pending rewards first", async () => {
    await send(agent, c.simple_reward_pool, abis.rewardPoolAbi, "withdraw", [e("0.2")]);
    expect(await read(c.pair_wbnb_usdt, abis.pairAbi, "balanceOf", [A])).toBe(e("2.2"));
    expect(await read(c.cake, abis.erc20Abi, "balanceOf", [A])).toBe(e("118.005"));
  });

  it("the flash loan repays 0.3 % in the same transaction", async () => {
    await send(agent, c.usdt, abis.erc20Abi, "approve", [c.flashloan_contract, maxUint256]);
    await send(agent, c.flashloan_contract, abis.flashLoanAbi, "executeFlashLoan", [c.usdt, e("500.55")]);
    const fee = (e("500.55") * 3n) / 1000n;
    expect(await read(c.usdt, abis.erc20Abi, "balanceOf", [A])).toBe(e("1000") - fee);
    expect(await read(c.flashloan_contract, abis.flashLoanAbi, "poolBalance", [c.usdt])).toBe(
      e("10000") + fee,
    );
    const noAllowance = await send(rich, c.flashloan_contract, abis.flashLoanAbi, "executeFlashLoan", [
      c.usdt,
      e("1"),
    ]);
    expect(noAllowance.status).toBe("reverted");
  });

  it("the proxy holds 1 and the implementation 2; setValue through the proxy leaves the implementation at 2", async () => {
    const slot = (address: Address, n: number) =>
      client.getStorageAt({ address, slot: toHex(n, { size: 32 }) });
    expect(await read(c.delegate_call_proxy, abis.delegateProxyAbi, "getValue")).toBe(1n);
    expect(await read(c.delegate_call_implementation, abis.delegateImplementationAbi, "getValue")).toBe(2n);
    expect(await read(c.delegate_call_proxy, abis.delegateProxyAbi, "implementation")).toBe(
      c.delegate_call_implementation,
    );
    expect(await slot(c.delegate_call_proxy, world.storageSlots.delegate_call_proxy.implementation)).toBe(
      pad(c.delegate_call_implementation.toLowerCase() as Hex),
    );
    await send(agent, c.delegate_call_proxy, abis.delegateProxyAbi, "setValue", [4321n]);
    expect(await read(c.delegate_call_proxy, abis.delegateProxyAbi, "getValue")).toBe(4321n);
    expect(await slot(c.delegate_call_proxy, world.storageSlots.delegate_call_proxy.value)).toBe(
      toHex(4321n, { size: 32 }),
    );
    expect(await read(c.delegate_call_implementation, abis.delegateImplementationAbi, "getValue")).toBe(2n);
  });

  it("the counter's count sits in the documented slot", async () => {
    const slot = toHex(world.storageSlots.simple_counter.count, { size: 32 });
    await anvilRpc(anvil.url, "anvil_setStorageAt", [c.simple_counter, slot, toHex(321n, { size: 32 })]);
    expect(await read(c.simple_counter, abis.counterAbi, "getCounter")).toBe(321n);
    await send(agent, c.simple_counter, abis.counterAbi, "increment");
    expect(await read(c.simple_counter, abis.counterAbi, "getCounter")).toBe(322n);
  });

  it("token balances and the reward stake sit at the documented mapping slots", async () => {
    const at = (key: Address, slot: number) =>
      keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [key, BigInt(slot)]));
    const word = (address: Address, slot: Hex) => client.getStorageAt({ address, slot });
    for (const key of ["usdt", "busd", "cake"] as const) {
      const slot = at(A, world.storageSlots[key]!.balances);
      expect(BigInt((await word(c[key], slot))!), key).toBe(
        await read(c[key], abis.erc20Abi, "balanceOf", [A]),
      );
    }
    expect(BigInt((await word(c.wbnb, at(A, world.storageSlots.wbnb!.balanceOf)))!)).toBe(e("100"));
    const stake = at(A, world.storageSlots.simple_reward_pool!.userInfo);
    expect(BigInt((await word(c.simple_reward_pool, stake))!)).toBe(e("0.5"));
  });

  it("the message board stores a message, the donation box attributes a donation", async () => {
    await send(agent, c.message_board, abis.messageBoardAbi, "setMessage", ["gm from the quest"]);
    expect(await read(c.message_board, abis.messageBoardAbi, "getMessage")).toBe("gm from the quest");
    await send(agent, c.donation_box, abis.donationBoxAbi, "donate", [], e("0.012"));
    expect(await read(c.donation_box, abis.donationBoxAbi, "getDonation", [A])).toBe(e("0.012"));
    expect(await read(c.donation_box, abis.donationBoxAbi, "getBalance")).toBe(e("0.012"));
    expect((await send(agent, c.donation_box, undefined, undefined, [], e("0.01"))).status).toBe("reverted");
  });

  it("the fallback receiver counts receive() and fallback() apart", async () => {
    await send(agent, c.fallback_receiver, undefined, undefined, [], e("0.003"));
    const wallet = createWalletClient({ account: agent, chain, transport: http(anvil.url) });
    const hash = await wallet.sendTransaction({
      to: c.fallback_receiver,
      value: e("0.002"),
      data: "0x1234",
      gas: 100_000n,
    });
    await minedReceipt(client, hash);
    expect(await read(c.fallback_receiver, abis.fallbackReceiverAbi, "receiveCount")).toBe(1n);
    expect(await read(c.fallback_receiver, abis.fallbackReceiverAbi, "fallbackCount")).toBe(1n);
    expect(await read(c.fallback_receiver, abis.fallbackReceiverAbi, "totalReceived")).toBe(e("0.005"));
    expect(await client.getBalance({ address: c.fallback_receiver })).toBe(e("0.005"));
  });
});

describe("Multicall3 at its canonical address", () => {
  it("viem's multicall with chain bsc batches reads through it; every view and aggregate function answers as Multicall3 does", async () => {
    const { bsc } = await import("viem/chains");
    const bscClient = createPublicClient({ chain: bsc, transport: http(anvil.url) });
    expect(getAddress(bsc.contracts.multicall3.address)).toBe(c.multicall3);
    const [symbol, balance] = await bscClient.multicall({
      contracts: [
        { address: c.usdt, abi: abis.erc20Abi, functionName: "symbol" },
        { address: c.usdt, abi: abis.erc20Abi, functionName: "balanceOf", args: [A] },
      ],
      allowFailure: false,
    });
    expect([symbol, balance]).toEqual(["USDT", e("1000")]);
    const m = abis.multicall3Abi;
    const head = await client.getBlock();
    expect(await read(c.multicall3, m, "getChainId")).toBe(56n);
    expect(await read(c.multicall3, m, "getEthBalance", [A])).toBe(e("100"));
    // The block environment, read at the head block by number.
    const atHead = (functionName: string) =>
      client.readContract({ address: c.multicall3, abi: m, functionName, blockNumber: head.number } as never);
    expect(await atHead("getBlockNumber")).toBe(head.number);
    expect(await atHead("getCurrentBlockTimestamp")).toBe(head.timestamp);
    expect(await atHead("getCurrentBlockGasLimit")).toBe(head.gasLimit);
    expect(await atHead("getCurrentBlockCoinbase")).toBe(getAddress(head.miner));
    // Anvil runs eth_call with its pinned next base fee (see primeWorldClock), not the block's.
    expect(await atHead("getBasefee")).toBeGreaterThan(0n);
    expect(await atHead("getCurrentBlockDifficulty")).toBe(BigInt(head.mixHash));
    // BLOCKHASH of the previous block (a state loaded from a dump may hash it apart from the header).
    const lastHash = await read(c.multicall3, m, "getLastBlockHash");
    expect(lastHash).not.toBe(pad("0x0"));
    expect(await read(c.multicall3, m, "getBlockHash", [head.number - 1n])).toBe(lastHash);
    const symbolCall = { target: c.cake, callData: "0x95d89b41" as Hex };
    const failing = { target: c.cake, callData: "0xdeadbeef" as Hex };
    const [, data] = await read(c.multicall3, m, "aggregate", [[symbolCall]]);
    expect(data).toHaveLength(1);
    await expect(read(c.multicall3, m, "aggregate", [[symbolCall, failing]])).rejects.toThrow(
      /Multicall3: call failed/,
    );
    expect(
      (await read(c.multicall3, m, "tryAggregate", [false, [symbolCall, failing]])).map(
        (r: { success: boolean }) => r.success,
      ),
    ).toEqual([true, false]);
    const [blockNumber, , results] = await read(c.multicall3, m, "tryBlockAndAggregate", [false, [failing]]);
    expect([blockNumber, results[0].success]).toEqual([head.number, false]);
    await expect(read(c.multicall3, m, "blockAndAggregate", [[failing]])).rejects.toThrow(/call failed/);
    expect(
      (
        await read(c.multicall3, m, "aggregate3", [
          [
            { ...symbolCall, allowFailure: false },
            { ...failing, allowFailure: true },
          ],
        ])
      ).map((r: { success: boolean }) => r.success),
    ).toEqual([true, false]);
    const deposit = { target: c.wbnb, allowFailure: false, value: 5n, callData: "0xd0e30db0" as Hex };
    const call3Value = (value: bigint) =>
      client.simulateContract({
        address: c.multicall3,
        abi: m,
        functionName: "aggregate3Value",
        args: [[deposit]],
        value,
        account: A,
      });
    expect((await call3Value(5n)).result[0]!.success).toBe(true);
    await expect(call3Value(6n)).rejects.toThrow(/Multicall3: value mismatch/);
  });
});

describe("selectors and ABIs", () => {
  const artifact = (name: string): Abi =>
    JSON.parse(readFileSync(path.join(import.meta.dirname, "../fixtures/artifacts", `${name}.json`), "utf8"))
      .abi;
  const uniswap = (pkg: string, name: string): Abi => require(`@uniswap/${pkg}/build/${name}.json`).abi;
  const selectorsOf = (abi: Abi) =>
    new Set(abi.filter((item) => item.type === "function").map((item) => toFunctionSelector(item as never)));
  const topicsOf = (abi: Abi) =>
    new Set(abi.filter((item) => item.type === "event").map((item) => toEventSelector(item as never)));

  // Every selector a task relies on, with the contract key it must be deployed at.
  const binding: [string, string, string[]][] = [
    ["wbnb", "WBNB", ["0xd0e30db0", "0x2e1a7d4d", "0xa9059cbb", "0x095ea7b3"]],
    ["usdt", "BEP20", ["0xa9059cbb", "0x095ea7b3", "0x23b872dd", "0x39509351", "0xa457c2d7"]],
    [
      "erc1363_token",
      "Quest1363Token",
      ["0x42966c68", "0xd505accf", "0x1296ee62", "0x4000aea0", "0x3177029f", "0xcae9ca51"],
    ],
    ["erc1363_receiver", "ERC1363Receiver", ["0x88a7ca5c", "0x7b04a2d0"]],
    ["erc721_token", "QuestNFT", ["0x23b872dd", "0x42842e0e", "0xb88d4fde", "0x095ea7b3", "0xa22cb465"]],
    ["pancake_squad", "PancakeSquad", ["0x23b872dd", "0x42842e0e", "0xb88d4fde", "0x095ea7b3", "0xa22cb465"]],
    ["nft_receiver", "NFTReceiver", ["0x150b7a02"]],
    ["erc1155_token", "QuestMultiToken", ["0xf242432a", "0x2eb2c2d6"]],
    ["simple_staking", "SimpleStaking", ["0xb6b55f25", "0x2e1a7d4d", "0x1959a002"]],
    ["simple_lp_staking", "SimpleStaking", ["0xb6b55f25", "0x2e1a7d4d", "0x1959a002"]],
    [
      "simple_reward_pool",
      "SimpleRewardPool",
      ["0xb6b55f25", "0x2e1a7d4d", "0x4641257d", "0xdb2e21bc", "0xf40f0f52"],
    ],
    ["simple_counter", "SimpleCounter", ["0xd09de08a", "0x8ada066e"]],
    ["message_board", "MessageBoard", ["0x368b8772", "0xce6d41de"]],
    ["donation_box", "DonationBox", ["0xed88c68e"]],
    ["delegate_call_implementation", "DelegateCallImplementation", ["0x55241077", "0x20965255"]],
    ["flashloan_contract", "FlashLoanProvider", ["0x6065c245"]],
  ];
  const routerSelectors = [
    "0x7ff36ab5",
    "0xb6f9de95",
    "0x18cbafe5",
    "0x791ac947",
    "0x38ed1739",
    "0x5c11d795",
    "0x8803dbee",
    "0xf305d719",
    "0xe8e33700",
    "0x02751cec",
    "0xaf2979eb",
    "0xbaa2abde",
  ];

  it("finds every selector the tasks rely on in the compiled ABI and in the code at the contract's address", async () => {
    for (const [key, name, selectors] of binding) {
      const abi = selectorsOf(artifact(name));
      const code = (await client.getCode({ address: c[key as keyof typeof c] }))!;
      for (const selector of selectors) {
        expect(abi.has(selector as Hex), `${name} ${selector}`).toBe(true);
        expect(code.includes(`63${selector.slice(2)}`), `${key} code ${selector}`).toBe(true);
      }
    }
    const router = selectorsOf(uniswap("v2-periphery", "UniswapV2Router02"));
    const routerCode = (await client.getCode({ address: c.pancake_router }))!;
    for (const selector of routerSelectors) {
      expect(router.has(selector as Hex), selector).toBe(true);
      expect(routerCode.includes(`63${selector.slice(2)}`), selector).toBe(true);
    }
  });

  it("has every function and event of each catalogue entry's ABI in the artifact of its code", () => {
    const codeAbi = (entry: CatalogueEntry): Abi =>
      entry.place.kind === "pair"
        ? loadArtifact("@uniswap/v2-core/UniswapV2Pair").abi
        : entry.place.kind === "account"
          ? []
          : loadArtifact(entry.place.artifact).abi;
    const checked: string[] = [];
    for (const [key, entry] of Object.entries(CATALOGUE as Catalogue)) {
      if (!entry.abi) continue;
      // A proxy answers its implementation's functions by delegation.
      const compiled = [
        ...codeAbi(entry),
        ...(entry.delegatesTo ? codeAbi(CATALOGUE[entry.delegatesTo as ContractKey]) : []),
      ];
      const [functions, events] = [selectorsOf(compiled), topicsOf(compiled)];
      for (const selector of selectorsOf(entry.abi))
        expect(functions.has(selector), `${key} ${selector}`).toBe(true);
      for (const topic of topicsOf(entry.abi)) expect(events.has(topic), `${key} ${topic}`).toBe(true);
      checked.push(key);
    }
    expect(checked).toEqual(CONTRACT_KEYS.filter((key) => key !== "rich_address"));
    // The plain ERC-20 surface (no BEP-20 extras) that checks use on every token and LP.
    for (const selector of selectorsOf(abis.erc20Abi))
      expect(selectorsOf(artifact("BEP20")).has(selector), selector).toBe(true);
  });
});

describe("determinism", () => {
  it("rebuilds the committed state.json and world.json byte for byte, and the artifacts from source", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "questbench-world-"));
    try {
      await buildWorld({ outDir: out });
      expect(readFileSync(path.join(out, "world.json"), "utf8")).toBe(readFileSync(worldJsonPath(), "utf8"));
      const rebuilt = readFileSync(path.join(out, "state.json"));
      expect(rebuilt.equals(readFileSync(worldStatePath()))).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    expect(checkArtifacts()).toEqual([]);
  }, 600_000);
});

describe("world catalogue (src/world/catalogue.ts)", () => {
  it("resolves every cross-reference, and names a broken one", () => {
    expect(catalogueProblems()).toEqual([]);
    const broken: Catalogue = {
      ...CATALOGUE,
      extra: {
        place: { kind: "deployed", artifact: "X", args: [{ contract: "no_such_key" }] },
        description: "x",
      },
    };
    expect(catalogueProblems(broken)).toEqual(["extra names unknown key no_such_key"]);
  });

  it("deploys own contracts in catalogue order, each after the contracts its arguments name", () => {
    const order = deploymentOrder();
    const own = keysOfKind("deployed");
    expect([...order].sort()).toEqual([...own].sort());
    // The proxy (listed before its implementation) waits for it; everything else keeps catalogue order.
    expect(order.indexOf("delegate_call_proxy")).toBe(order.indexOf("delegate_call_implementation") + 1);
    const rest = order.filter((key) => key !== "delegate_call_proxy");
    expect(rest).toEqual(own.filter((key) => key !== "delegate_call_proxy"));
    const cycle: Catalogue = {
      a: { place: { kind: "deployed", artifact: "A", args: [{ contract: "b" }] }, description: "a" },
      b: { place: { kind: "deployed", artifact: "B", args: [{ contract: "a" }] }, description: "b" },
    };
    expect(() => deploymentOrder(cycle)).toThrow(/cycle among a, b/);
  });

  // docs/TASKS.md "Adding a contract": a new contract is one catalogue entry plus its Solidity. This adds both in a
  // temp dir only, then builds the local world, describes it in the prompt and provisions a fork of it.
  it("builds, describes and fork-provisions a contract added as one entry plus its Solidity", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "questbench-catalogue-"));
    const served: { stop?: () => Promise<void> } = {};
    let fork: AnvilHandle | undefined;
    try {
      mkdirSync(path.join(dir, "contracts"));
      writeFileSync(
        path.join(dir, "contracts/Greeter.sol"),
        `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Greeter {
    address public owner;
    address public token;
    string public greeting;
    constructor(address owner_, address token_, string memory greeting_) {
        owner = owner_; token = token_; greeting = greeting_;
    }
}
`,
      );
      const artifactsDir = path.join(dir, "artifacts");
      cpSync(path.join(import.meta.dirname, "../fixtures/artifacts"), artifactsDir, { recursive: true });
      writeArtifacts(compileContracts(path.join(dir, "contracts")), artifactsDir);
      const greeterAbi = parseAbi([
        "function owner() view returns (address)",
        "function token() view returns (address)",
        "function greeting() view returns (string)",
      ]);
      const catalogue: Catalogue = {
        ...CATALOGUE,
        greeter: {
          place: {
            kind: "deployed",
            artifact: "Greeter",
            args: [{ account: "agent" }, { contract: "usdt" }, "gm"],
          },
          description: "Greeter: greeting() → string, owner() → address",
          abi: greeterAbi,
          slots: { owner: 0, token: 1, greeting: 2 },
        },
      };

      const built = await buildWorld({ outDir: path.join(dir, "world"), artifactsDir, catalogue });
      const next = built.world as unknown as World & { contracts: Record<string, Address> };
      // Appended last, it is deployed last: every existing key keeps its address.
      for (const key of CONTRACT_KEYS) expect(next.contracts[key], key).toBe(c[key]);
      expect(next.storageSlots).toMatchObject({ greeter: { owner: 0, token: 1, greeting: 2 } });
      expect(environmentPrompt(next, catalogue)).toContain(
        `  - greeter: ${next.contracts.greeter} — Greeter: greeting() → string, owner() → address`,
      );

      const local = await serveWorld({ stateFile: built.statePath, world: next });
      served.stop = local.stop;
      const localClient = makeClient(local.url);
      const greet = (address: Address, functionName: "owner" | "token" | "greeting") =>
        localClient.readContract({ address, abi: greeterAbi, functionName });
      expect(await greet(next.contracts.greeter!, "owner")).toBe(next.agent.address);
      expect(await greet(next.contracts.greeter!, "token")).toBe(c.usdt);
      expect(await greet(next.contracts.greeter!, "greeting")).toBe("gm");

      fork = await startAnvil({ forkUrl: local.url, chainId: 56 });
      const { world: forked, report } = await provisionFork({
        url: fork.url,
        chainId: 56,
        catalogue,
        artifactsDir,
      });
      expect(report.requirements.filter((r) => !r.ok)).toEqual([]);
      expect(report.requirements.map((r) => r.id)).toContain("greeter deployed");
      const greeter = (forked.contracts as Record<string, Address>).greeter!;
      expect(greeter).not.toBe(next.contracts.greeter);
      const forkClient = makeClient(fork.url);
      expect(
        await forkClient.readContract({ address: greeter, abi: greeterAbi, functionName: "owner" }),
      ).toBe(forked.agent.address);
    } finally {
      await fork?.stop();
      await served.stop?.();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
