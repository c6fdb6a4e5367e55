/**
 * Fork mode (SPEC.md §3): provisions the world of TASKS.md §2 on a fork of a real chain, without
 * the local world's build script or state file. The canonical contracts (tokens, PancakeSwap router
 * and factory, PancakeSquad) are the fork's own; everything the agent holds is put there by the
 * harness with cheat methods (storage writes, `anvil_setBalance`, impersonation) and real
 * transactions from fork-only accounts, and the auxiliary contracts are deployed from the build's
 * compiled artifacts (fixtures/artifacts).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  maxUint256,
  numberToHex,
  type PublicClient,
  parseEther,
  toHex,
  zeroAddress,
} from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { ChainError } from "../../errors.ts";
import {
  erc20Abi,
  erc721Abi,
  erc1155Abi,
  factoryAbi,
  flashLoanAbi,
  pairAbi,
  rewardPoolAbi,
  routerAbi,
  wbnbAbi,
} from "../abis.ts";
import { anvilRpc, primeWorldClock } from "../pool.ts";
import { CONTRACT_KEYS, type ContractKey, loadWorld, type TokenKey, type World } from "../world.ts";
import {
  type AllowanceSlot,
  type BalanceSlot,
  findAllowanceSlot,
  findBalanceSlot,
  writeTokenBalance,
} from "./slots.ts";

const artifactsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/artifacts",
);

/** The canonical BSC mainnet addresses the fork must already have code at (TASKS.md §2.2). */
export const CANONICAL: Record<
  "wbnb" | "usdt" | "busd" | "cake" | "pancake_router" | "pancake_factory" | "pancake_squad",
  Address
> = {
  wbnb: getAddress("0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c"),
  usdt: getAddress("0x55d398326f99059fF775485246999027B3197955"),
  busd: getAddress("0xe9e7CEA3DedcA5984780Bafc599bD69ADd087D56"),
  cake: getAddress("0x0E09FaBB73Bd3Ade0a17ECC321fD13a19e81cE82"),
  pancake_router: getAddress("0x10ED43C718714eb63d5aA57B78B54704E256024E"),
  pancake_factory: getAddress("0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73"),
  pancake_squad: getAddress("0x0a8901b0E25DEb55A87524f0cC164E9644020EBA"),
};

/**
 * Fork-only accounts: keccak256 of a constant label, distinct from the local world's keys, so on a
 * fork of the local world (the offline test) nothing the agent holds comes from the world's build.
 */
const keyOf = (label: string): Hex => keccak256(toHex(`evm-questbench/fork/v1/${label}`));
export const FORK_KEYS = { agent: keyOf("agent"), rich: keyOf("rich"), treasury: keyOf("treasury") } as const;

/** The canonical ERC-20s whose slots are probed. */
export const PROBED_TOKENS = ["wbnb", "usdt", "busd", "cake"] as const;
export type ProbedToken = (typeof PROBED_TOKENS)[number];

/** [key, tokenA, tokenB, amountA, amountB] of TASKS.md §2.2; amounts seed a pair the fork lacks. */
const PAIRS = [
  ["pair_usdt_busd", "usdt", "busd", "1000000", "1000000"],
  ["pair_wbnb_usdt", "usdt", "wbnb", "600000", "1000"],
  ["pair_wbnb_busd", "wbnb", "busd", "1000", "600000"],
  ["pair_wbnb_cake", "cake", "wbnb", "250000", "1000"],
  ["pair_cake_usdt", "cake", "usdt", "100000", "240000"],
  ["pair_cake_busd", "cake", "busd", "100000", "240000"],
] as const;
type PairKey = (typeof PAIRS)[number][0];

/** What a fork run records about the chain it forked (results.json `manifest.fork`). */
export type ForkManifest = {
  chainId: number;
  /** The pinned block (`--fork-block latest` resolved once, before any instance booted). */
  blockNumber: number;
  blockHash: Hex;
  /** The fork URL with credentials redacted (src/world/fork/redact.ts). */
  url: string;
};

/** One requirement of TASKS.md §2 checked after provisioning; tasks naming `keys` need it. */
export type Requirement = {
  id: string;
  /** `deployedContracts` keys a task names when it relies on this (see {@link tasksToSkip}). */
  keys: ContractKey[];
  ok: boolean;
  /** What was found (on failure: why it could not be provisioned). */
  detail: string;
};

/** What provisioning did and found; the run keeps it next to the manifest. */
export type ProvisionReport = {
  /** Probed storage slots of the canonical tokens (null: not found, see `errors`). */
  slots: Record<ProbedToken, { balance: BalanceSlot | null; allowance: AllowanceSlot | null }>;
  /** Pair addresses from the factory; `created` when the fork lacked the pair and provisioning made it. */
  pairs: Record<PairKey, { address: Address; created: boolean }>;
  /** Holder of PancakeSquad #1 on the fork before it was moved to the agent. */
  pancakeSquadPreviousOwner: Address | null;
  requirements: Requirement[];
  /** Steps that threw, by step name (redacted messages). */
  errors: Record<string, string>;
  timings: { probeMs: number; provisionMs: number };
};

type Artifact = { abi: Abi; bytecode: Hex };
const artifact = (name: string): Artifact =>
  JSON.parse(readFileSync(path.join(artifactsDir, `${name}.json`), "utf8")) as Artifact;

const lower = (a: string) => a.toLowerCase();
/** A message on one line (viem's short messages span two). */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

/** numerator/denominator as a decimal string with 18 fractional digits, truncated (world.json `P`). */
function formatRatio(numerator: bigint, denominator: bigint): string {
  const scaled = (numerator * 10n ** 18n) / denominator;
  const text = scaled.toString().padStart(19, "0");
  const fraction = text.slice(-18).replace(/0+$/, "");
  return fraction ? `${text.slice(0, -18)}.${fraction}` : text.slice(0, -18);
}

/** Parameters of {@link provisionFork}. */
export type ProvisionForkParameters = {
  /** Direct URL of the forked Anvil (cheat methods allowed: the harness's own channel). */
  url: string;
  /** Chain id of the fork (56 for BNB Smart Chain). */
  chainId: number;
};

/**
 * Provisions TASKS.md §2 on a freshly booted fork and returns the world (same shape as
 * world.json, with the fork's addresses) plus a report. Deterministic: the same fork block gives
 * the same addresses, balances and snapshot head on every pool instance.
 *
 * Steps: pin the clock (1 s per block); fund the fork accounts with BNB; probe the balance and
 * allowance slots of WBNB, USDT, BUSD, CAKE ({@link findBalanceSlot}); fund the treasury, the agent
 * (1,000 USDT, 1,000 BUSD, 100 CAKE) and R (5,000 USDT) by storage writes; wrap the agent's 100 WBNB
 * and the treasury's WBNB by real deposits; read the six pairs from the factory (`getPair`), creating
 * and seeding any that is missing; mint LP by `addLiquidity` and give the agent 2.5 LPwu and 2.0 LPub;
 * deploy the auxiliary contracts; move PancakeSquad #1 to the agent (impersonating its holder);
 * R approves A for 1,000 USDT; A stakes 0.5 LPwu in the reward pool 3,600 s before the snapshot
 * block; BNB balances are set to 100 (A) and 1 (R). Each step that fails is recorded; the
 * requirements are then verified by reading the chain.
 *
 * @throws {ChainError} when the fork is not chain 56 or a canonical contract has no code (nothing
 *   of the benchmark can run); failures of single steps are reported, not thrown.
 */
export async function provisionFork(
  parameters: ProvisionForkParameters,
): Promise<{ world: World; report: ProvisionReport }> {
  const { url, chainId } = parameters;
  const started = performance.now();
  const chain = defineChain({
    id: chainId,
    name: "BNB Smart Chain (fork)",
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const transport = http(url, { retryCount: 0, timeout: 60_000 });
  const client = createPublicClient({ chain, transport }) as PublicClient;
  const rpc = <T = unknown>(method: string, params: unknown[] = []) =>
    anvilRpc<T>(url, method, params, 60_000);
  const read = <T>(address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
    client.readContract({ address, abi, functionName, args } as never) as Promise<T>;

  const agent = privateKeyToAccount(FORK_KEYS.agent);
  const rich = privateKeyToAccount(FORK_KEYS.rich);
  const treasury = privateKeyToAccount(FORK_KEYS.treasury);

  async function receipt(hash: Hex, what: string) {
    const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (r.status !== "success") throw new ChainError(`Fork provisioning: ${what} reverted (${hash}).`);
    return r;
  }
  async function send(
    from: PrivateKeyAccount,
    to: Address | null,
    data: Hex,
    what: string,
    value = 0n,
  ): Promise<{ contractAddress: Address | null; blockNumber: bigint }> {
    const wallet = createWalletClient({ account: from, chain, transport });
    const hash = await wallet.sendTransaction({ to, data, value } as never);
    const r = await receipt(hash, what);
    return { contractAddress: r.contractAddress ?? null, blockNumber: r.blockNumber };
  }
  const call = (from: PrivateKeyAccount, to: Address, abi: Abi, fn: string, args: unknown[], value = 0n) =>
    send(from, to, encodeFunctionData({ abi, functionName: fn, args } as never), `${fn} on ${to}`, value);
  const deploy = async (name: string, args: unknown[] = []) => {
    const a = artifact(name);
    const { contractAddress } = await send(
      treasury,
      null,
      encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args } as never),
      `deploying ${name}`,
    );
    return getAddress(contractAddress!);
  };

  // --- Preconditions: without these no task can run, so they throw. ----------------------------
  const remoteChainId = Number(await rpc<Hex>("eth_chainId"));
  if (remoteChainId !== 56)
    throw new ChainError(
      `Fork mode needs BNB Smart Chain (chain id 56); the fork is chain ${remoteChainId}.`,
    );
  const missingCode: string[] = [];
  for (const [key, address] of Object.entries(CANONICAL))
    if ((await rpc<Hex>("eth_getCode", [address, "latest"])) === "0x") missingCode.push(`${key} ${address}`);
  if (missingCode.length)
    throw new ChainError("The fork lacks canonical BSC contracts.", {
      details: `No code at ${missingCode.join(", ")}.`,
    });

  const errors: Record<string, string> = {};
  async function step<T>(name: string, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (error) {
      errors[name] = oneLine(
        (error as { shortMessage?: string; message?: string }).shortMessage ??
          (error as Error).message ??
          String(error),
      );
      return undefined;
    }
  }

  await primeWorldClock(url);
  await rpc("anvil_setBalance", [treasury.address, numberToHex(parseEther("1000000"))]);
  await rpc("anvil_setBalance", [agent.address, numberToHex(parseEther("200"))]);
  await rpc("anvil_setBalance", [rich.address, numberToHex(parseEther("2"))]);

  // --- Slots by probing. -----------------------------------------------------------------------
  const probeStart = performance.now();
  const slots = {} as ProvisionReport["slots"];
  for (const key of PROBED_TOKENS) {
    const balance = await step(`probe ${key} balance`, () => findBalanceSlot({ url, token: CANONICAL[key] }));
    const allowance = await step(`probe ${key} allowance`, () =>
      findAllowanceSlot({ url, token: CANONICAL[key] }),
    );
    slots[key] = {
      balance: balance ? { slot: balance.slot, layout: balance.layout, offset: balance.offset } : null,
      allowance: allowance ? { slot: allowance.slot, layout: allowance.layout } : null,
    };
  }
  const probeMs = Math.round(performance.now() - probeStart);

  const fund = (key: ProbedToken, holder: Address, amount: string) =>
    step(`fund ${holder} with ${amount} ${key}`, async () => {
      const slot = slots[key].balance;
      if (!slot) throw new ChainError(`${key}: no balance slot found by probing.`);
      await writeTokenBalance({ url, token: CANONICAL[key], slot, holder, amount: parseEther(amount) });
    });
  for (const key of ["usdt", "busd", "cake"] as const) await fund(key, treasury.address, "1000000000");
  await fund("usdt", agent.address, "1000");
  await fund("busd", agent.address, "1000");
  await fund("cake", agent.address, "100");
  await fund("usdt", rich.address, "5000");
  // WBNB stays fully backed (TASKS.md §2.1): real deposits, never storage writes.
  await step("treasury WBNB deposit", () =>
    call(treasury, CANONICAL.wbnb, wbnbAbi, "deposit", [], parseEther("10000")),
  );
  await step("agent WBNB deposit", () =>
    call(agent, CANONICAL.wbnb, wbnbAbi, "deposit", [], parseEther("100")),
  );
  for (const key of ["wbnb", "usdt", "busd", "cake"] as const)
    await step(`treasury approves the router for ${key}`, () =>
      call(treasury, CANONICAL[key], erc20Abi, "approve", [CANONICAL.pancake_router, maxUint256]),
    );

  // --- Pairs from the factory; a missing one is created and seeded with the §2.2 reserves. -------
  const deadline = 2n ** 40n;
  const pairs = {} as ProvisionReport["pairs"];
  for (const [key, a, b, amountA, amountB] of PAIRS) {
    await step(key, async () => {
      let pair = getAddress(
        await read<Address>(CANONICAL.pancake_factory, factoryAbi, "getPair", [CANONICAL[a], CANONICAL[b]]),
      );
      let created = false;
      if (pair === zeroAddress) {
        await call(treasury, CANONICAL.pancake_factory, factoryAbi, "createPair", [
          CANONICAL[a],
          CANONICAL[b],
        ]);
        pair = getAddress(
          await read<Address>(CANONICAL.pancake_factory, factoryAbi, "getPair", [CANONICAL[a], CANONICAL[b]]),
        );
        created = true;
      }
      const [r0, r1] = await read<[bigint, bigint, number]>(pair, pairAbi, "getReserves");
      if (r0 === 0n || r1 === 0n)
        await call(treasury, CANONICAL.pancake_router, routerAbi, "addLiquidity", [
          CANONICAL[a],
          CANONICAL[b],
          parseEther(amountA),
          parseEther(amountB),
          0n,
          0n,
          treasury.address,
          deadline,
        ]);
      pairs[key] = { address: pair, created };
    });
  }

  // P (TASKS.md §0) is a constant of the pinned block: read before provisioning mints any LP.
  let P = "0";
  await step("P", async () => {
    const pair = pairs.pair_wbnb_usdt.address;
    const [token0, [r0, r1]] = await Promise.all([
      read<Address>(pair, pairAbi, "token0"),
      read<[bigint, bigint, number]>(pair, pairAbi, "getReserves"),
    ]);
    P = lower(token0) === lower(CANONICAL.usdt) ? formatRatio(r0, r1) : formatRatio(r1, r0);
  });

  /** The treasury mints ≥ `lp` wei of a pair's LP through the router (1 % over the pro-rata amounts). */
  async function mintLp(key: "pair_usdt_busd" | "pair_wbnb_usdt", lp: bigint) {
    const pair = pairs[key]!.address;
    const [token0, token1, [r0, r1], supply] = await Promise.all([
      read<Address>(pair, pairAbi, "token0"),
      read<Address>(pair, pairAbi, "token1"),
      read<[bigint, bigint, number]>(pair, pairAbi, "getReserves"),
      read<bigint>(pair, pairAbi, "totalSupply"),
    ]);
    const desired = (reserve: bigint) => (((lp * reserve) / supply + 1n) * 101n) / 100n + 1_000n;
    await call(treasury, CANONICAL.pancake_router, routerAbi, "addLiquidity", [
      token0,
      token1,
      desired(r0),
      desired(r1),
      0n,
      0n,
      treasury.address,
      deadline,
    ]);
  }
  const lpub = parseEther("2");
  const lpwu = parseEther("2.5");
  // The treasury keeps a stock too: pre-states plant LP from it (e.g. query_pending_rewards, ≤ 1 LPwu).
  const lpStock = parseEther("100");
  await step("LPub to the agent", async () => {
    await mintLp("pair_usdt_busd", lpub + lpStock);
    await call(treasury, pairs.pair_usdt_busd.address, pairAbi, "transfer", [agent.address, lpub]);
  });
  await step("LPwu to the agent", async () => {
    await mintLp("pair_wbnb_usdt", lpwu + lpStock);
    await call(treasury, pairs.pair_wbnb_usdt.address, pairAbi, "transfer", [agent.address, lpwu]);
  });

  // --- Auxiliary contracts (the build's artifacts and constructor arguments). ------------------
  const aux = {} as Partial<Record<ContractKey, Address>>;
  const deployAux = (key: ContractKey, name: string, args: () => unknown[] = () => []) =>
    step(`deploy ${key}`, async () => {
      aux[key] = await deploy(name, args());
    });
  await deployAux("erc1363_token", "Quest1363Token", () => [treasury.address, parseEther("10000000")]);
  await deployAux("erc1363_receiver", "ERC1363Receiver");
  await deployAux("erc721_token", "QuestNFT", () => [agent.address]);
  await deployAux("nft_receiver", "NFTReceiver");
  await deployAux("erc1155_token", "QuestMultiToken", () => [agent.address]);
  await deployAux("simple_staking", "SimpleStaking", () => [CANONICAL.cake]);
  await deployAux("simple_lp_staking", "SimpleStaking", () => [pairs.pair_usdt_busd.address]);
  await deployAux("simple_reward_pool", "SimpleRewardPool", () => [
    pairs.pair_wbnb_usdt.address,
    CANONICAL.cake,
  ]);
  await deployAux("simple_counter", "SimpleCounter");
  await deployAux("message_board", "MessageBoard");
  await deployAux("donation_box", "DonationBox");
  await deployAux("fallback_receiver", "FallbackReceiver");
  await deployAux("delegate_call_implementation", "DelegateCallImplementation", () => [2n]);
  await deployAux("delegate_call_proxy", "DelegateCallProxy", () => [aux.delegate_call_implementation, 1n]);
  await deployAux("flashloan_contract", "FlashLoanProvider");

  await step("T1363 to the agent", () =>
    call(treasury, aux.erc1363_token!, erc20Abi, "transfer", [agent.address, parseEther("1000000")]),
  );
  await step("reward pool funding", () =>
    call(treasury, CANONICAL.cake, erc20Abi, "transfer", [aux.simple_reward_pool!, parseEther("10000")]),
  );
  await step("flash-loan funding", () =>
    call(treasury, CANONICAL.usdt, erc20Abi, "transfer", [aux.flashloan_contract!, parseEther("10000")]),
  );

  // --- PancakeSquad #1 moves from its holder on the fork to the agent. ------------------------
  let squadOwner: Address | null = null;
  await step("PancakeSquad #1 to the agent", async () => {
    squadOwner = getAddress(await read<Address>(CANONICAL.pancake_squad, erc721Abi, "ownerOf", [1n]));
    if (lower(squadOwner) === lower(agent.address)) return;
    const balance = await client.getBalance({ address: squadOwner });
    await rpc("anvil_impersonateAccount", [squadOwner]);
    try {
      await rpc("anvil_setBalance", [squadOwner, numberToHex(balance + parseEther("1"))]);
      const hash = await rpc<Hex>("eth_sendTransaction", [
        {
          from: squadOwner,
          to: CANONICAL.pancake_squad,
          data: encodeFunctionData({
            abi: erc721Abi,
            functionName: "transferFrom",
            args: [squadOwner, agent.address, 1n],
          }),
          gas: numberToHex(500_000),
        },
      ]);
      await receipt(hash, "PancakeSquad #1 transfer");
    } finally {
      await rpc("anvil_stopImpersonatingAccount", [squadOwner]);
      await rpc("anvil_setBalance", [squadOwner, numberToHex(balance)]);
    }
  });

  await step("R approves A", () =>
    call(rich, CANONICAL.usdt, erc20Abi, "approve", [agent.address, parseEther("1000")]),
  );

  // --- The agent's stake, 3,600 s before the snapshot block (TASKS.md §2.1). ------------------
  let stakeTimestamp = 0;
  await step("agent stakes 0.5 LPwu", async () => {
    const amount = parseEther("0.5");
    await call(agent, pairs.pair_wbnb_usdt.address, pairAbi, "approve", [aux.simple_reward_pool!, amount]);
    const { blockNumber } = await call(agent, aux.simple_reward_pool!, rewardPoolAbi, "deposit", [amount]);
    const block = await client.getBlock({ blockNumber });
    stakeTimestamp = Number(block.timestamp);
    await rpc("evm_setNextBlockTimestamp", [stakeTimestamp + 3_600]);
  });
  await rpc("evm_mine");
  await rpc("anvil_setBalance", [agent.address, numberToHex(parseEther("100"))]);
  await rpc("anvil_setBalance", [rich.address, numberToHex(parseEther("1"))]);

  // --- The world object. -----------------------------------------------------------------------
  const head = await client.getBlock();
  const genesis = await client.getBlock({ blockNumber: 0n });
  const local = loadWorld();
  const contracts = { ...CANONICAL } as Record<ContractKey, Address>;
  for (const key of CONTRACT_KEYS) {
    if (key === "rich_address") contracts[key] = rich.address;
    else if (key.startsWith("pair_")) contracts[key] = pairs[key as PairKey]?.address ?? zeroAddress;
    else if (!(key in CANONICAL)) contracts[key] = aux[key] ?? zeroAddress;
  }
  const tokens = { ...local.tokens };
  for (const key of ["wbnb", "usdt", "busd", "cake"] as TokenKey[])
    await step(`metadata ${key}`, async () => {
      const [symbol, name, decimals] = await Promise.all([
        read<string>(contracts[key], erc20Abi, "symbol"),
        read<string>(contracts[key], erc20Abi, "name"),
        read<number>(contracts[key], erc20Abi, "decimals"),
      ]);
      tokens[key] = { symbol, name, decimals: Number(decimals) };
    });
  const storageSlots = { ...local.storageSlots };
  for (const key of PROBED_TOKENS) {
    const { balance, allowance } = slots[key];
    // world.json's storageSlots are Solidity slot numbers; other layouts live in the report only.
    if (balance?.layout === "solidity" && balance.offset === 0 && allowance?.layout === "solidity")
      storageSlots[key] = { balances: balance.slot, allowances: allowance.slot };
    else delete storageSlots[key];
  }
  const body = {
    schemaVersion: 1 as const,
    chainId: 56 as const,
    genesisTimestamp: Number(genesis.timestamp),
    snapshot: { blockNumber: Number(head.number), timestamp: Number(head.timestamp) },
    agent: { address: agent.address, privateKey: FORK_KEYS.agent },
    rich: { address: rich.address, privateKey: FORK_KEYS.rich },
    treasury: { address: treasury.address, privateKey: FORK_KEYS.treasury },
    contracts,
    tokens,
    constants: { ...local.constants, P, stakeTimestamp },
    storageSlots,
  };
  const world: World = {
    ...body,
    // Identifies the provisioned state: same fork block and provisioning → same id (merge compares it).
    worldId: `sha256:${createHash("sha256")
      .update(JSON.stringify({ forkHead: head.hash, body }))
      .digest("hex")}`,
  };
  const requirements = await verifyRequirements(client, world, errors);
  return {
    world,
    report: {
      slots,
      pairs,
      pancakeSquadPreviousOwner: squadOwner,
      requirements,
      errors,
      timings: { probeMs, provisionMs: Math.round(performance.now() - started) },
    },
  };
}

/**
 * Reads back every holding and contract state of TASKS.md §2 the tasks rely on. Each requirement
 * names the `deployedContracts` keys whose tasks need it.
 */
export async function verifyRequirements(
  client: PublicClient,
  world: World,
  errors: Record<string, string> = {},
): Promise<Requirement[]> {
  const c = world.contracts;
  const A = world.agent.address;
  const out: Requirement[] = [];
  const why = (prefix: string) =>
    Object.entries(errors)
      .filter(([name]) => name.includes(prefix))
      .map(([name, message]) => `${name}: ${message}`)
      .join("; ");
  async function need(
    id: string,
    keys: ContractKey[],
    errorPrefix: string,
    check: () => Promise<string | true>,
  ) {
    let result: string | true;
    try {
      result = await check();
    } catch (error) {
      result = `could not be read (${oneLine((error as { shortMessage?: string }).shortMessage ?? (error as Error).message)})`;
    }
    const cause = result === true ? "" : why(errorPrefix);
    out.push({
      id,
      keys,
      ok: result === true,
      detail: result === true ? "ok" : `${result}${cause ? ` — ${cause}` : ""}`,
    });
  }
  const read = <T>(address: Address, abi: Abi, functionName: string, args: unknown[] = []) => {
    if (address === zeroAddress) throw new ChainError("not deployed");
    return client.readContract({ address, abi, functionName, args } as never) as Promise<T>;
  };
  const balanceIs = async (token: Address, holder: Address, expected: string, what: string) => {
    const got = await read<bigint>(token, erc20Abi, "balanceOf", [holder]);
    return got === parseEther(expected)
      ? true
      : `${what}: balanceOf is ${got} wei, expected ${parseEther(expected)}`;
  };

  await need("agent holds 100 BNB", [], "agent", async () =>
    (await client.getBalance({ address: A })) === parseEther("100") ? true : "agent BNB balance is not 100",
  );
  await need("agent holds 100 WBNB", ["wbnb"], "WBNB", () => balanceIs(c.wbnb, A, "100", "agent WBNB"));
  for (const [key, amount] of [
    ["usdt", "1000"],
    ["busd", "1000"],
    ["cake", "100"],
  ] as const)
    await need(`agent holds ${amount} ${key.toUpperCase()}`, [key], key, () =>
      balanceIs(c[key], A, amount, `agent ${key}`),
    );
  for (const key of CONTRACT_KEYS.filter((k) => k.startsWith("pair_")))
    await need(`${key} has liquidity`, [key], key, async () => {
      const [r0, r1] = await read<[bigint, bigint, number]>(c[key], pairAbi, "getReserves");
      return r0 > 0n && r1 > 0n ? true : `${key} has no reserves`;
    });
  await need("agent holds 2.0 LPub", ["pair_usdt_busd", "simple_lp_staking"], "LPub", () =>
    balanceIs(c.pair_usdt_busd, A, "2", "agent LPub"),
  );
  await need(
    "treasury holds ≥ 100 LPub and ≥ 100 LPwu for pre-states",
    ["pair_usdt_busd", "pair_wbnb_usdt"],
    "LP",
    async () => {
      for (const key of ["pair_usdt_busd", "pair_wbnb_usdt"] as const) {
        const stock = await read<bigint>(c[key], erc20Abi, "balanceOf", [world.treasury.address]);
        if (stock < parseEther("100")) return `treasury holds ${stock} wei of ${key}`;
      }
      return true;
    },
  );
  await need(
    "agent holds 2.0 LPwu and 0.5 staked",
    ["pair_wbnb_usdt", "simple_reward_pool"],
    "LPwu",
    async () => {
      const held = await balanceIs(c.pair_wbnb_usdt, A, "2", "agent LPwu");
      if (held !== true) return held;
      const [staked] = await read<[bigint, bigint, bigint]>(c.simple_reward_pool, rewardPoolAbi, "userInfo", [
        A,
      ]);
      return staked === parseEther("0.5") ? true : `agent stake is ${staked} wei, expected 0.5 LPwu`;
    },
  );
  for (const key of CONTRACT_KEYS.filter(
    (k) => !k.startsWith("pair_") && !(k in CANONICAL) && k !== "rich_address",
  ))
    await need(`${key} deployed`, [key], `deploy ${key}`, async () =>
      c[key] !== zeroAddress && (await client.getCode({ address: c[key] })) ? true : `${key} has no code`,
    );
  await need("agent holds 1,000,000 T1363", ["erc1363_token"], "T1363", () =>
    balanceIs(c.erc1363_token, A, "1000000", "agent T1363"),
  );
  await need("agent owns QNFT 1–10", ["erc721_token"], "erc721", async () => {
    for (let id = 1n; id <= 10n; id++)
      if (lower(await read<Address>(c.erc721_token, erc721Abi, "ownerOf", [id])) !== lower(A))
        return `QNFT #${id} is not the agent's`;
    return true;
  });
  await need("agent owns PancakeSquad #1", ["pancake_squad"], "PancakeSquad", async () =>
    lower(await read<Address>(c.pancake_squad, erc721Abi, "ownerOf", [1n])) === lower(A)
      ? true
      : "PancakeSquad #1 is not the agent's",
  );
  await need("agent holds ERC-1155 ids 1–3", ["erc1155_token"], "erc1155", async () => {
    for (const [id, units] of Object.entries(world.constants.erc1155AgentBalances))
      if ((await read<bigint>(c.erc1155_token, erc1155Abi, "balanceOf", [A, BigInt(id)])) !== BigInt(units))
        return `ERC-1155 id ${id} is not ${units}`;
    return true;
  });
  await need("reward pool holds 10,000 CAKE", ["simple_reward_pool"], "reward pool", () =>
    balanceIs(c.cake, c.simple_reward_pool, "10000", "reward pool CAKE"),
  );
  await need("flash-loan pool holds 10,000 USDT", ["flashloan_contract"], "flash-loan", async () => {
    const pool = await read<bigint>(c.flashloan_contract, flashLoanAbi, "poolBalance", [c.usdt]);
    return pool === parseEther("10000") ? true : `poolBalance(USDT) is ${pool}`;
  });
  await need(
    "R holds 5,000 USDT, 1 BNB and approved A for 1,000 USDT",
    ["rich_address"],
    "R approves",
    async () => {
      const usdt = await balanceIs(c.usdt, c.rich_address, "5000", "R USDT");
      if (usdt !== true) return usdt;
      if ((await client.getBalance({ address: c.rich_address })) !== parseEther("1")) return "R BNB is not 1";
      const allowance = await read<bigint>(c.usdt, erc20Abi, "allowance", [c.rich_address, A]);
      return allowance === parseEther("1000") ? true : `allowance(R, A) is ${allowance}`;
    },
  );
  await need(
    "proxy holds 1, implementation 2",
    ["delegate_call_proxy", "delegate_call_implementation"],
    "delegate",
    async () => {
      const abi = [
        {
          type: "function",
          name: "getValue",
          inputs: [],
          outputs: [{ type: "uint256" }],
          stateMutability: "view",
        },
      ] as const;
      const proxy = await read<bigint>(c.delegate_call_proxy, abi, "getValue");
      const impl = await read<bigint>(c.delegate_call_implementation, abi, "getValue");
      return proxy === 1n && impl === 2n ? true : `getValue() is ${proxy} / ${impl}`;
    },
  );
  return out;
}

/** A task spec as far as {@link tasksToSkip} reads it: its id and its file's text. */
export type TaskText = { id: string; text: string };

/**
 * The tasks whose pre-state cannot be provisioned: a task relies on a failed requirement when its
 * spec (templates, checks, pre-state, reference answer) names one of the requirement's
 * `deployedContracts` keys (`contracts.<key>`, `deployedContracts.<key>`; `rich` for R).
 *
 * @returns task id → reason (the first failed requirement it relies on).
 */
export function tasksToSkip(
  requirements: readonly Requirement[],
  tasks: readonly TaskText[],
): Record<string, string> {
  const failed = requirements.filter((r) => !r.ok);
  const skipped: Record<string, string> = {};
  for (const task of tasks) {
    const named = new Set(
      [...task.text.matchAll(/contracts\s*(?:\.\s*|\[\s*["'])([a-z0-9_]+)/gi)].map((m) =>
        m[1]!.toLowerCase(),
      ),
    );
    if (/\brich\b/.test(task.text)) named.add("rich_address");
    const blocker = failed.find((r) => r.keys.length === 0 || r.keys.some((k) => named.has(k)));
    if (blocker) skipped[task.id] = `fork pre-state not provisioned: ${blocker.id}: ${blocker.detail}`;
  }
  return skipped;
}
