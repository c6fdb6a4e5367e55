/**
 * Fork mode (docs/TASKS.md "Fork provisioning"): provisions the world of docs/TASKS.md "The world" on a fork of a real chain, without
 * the local world's build script or state file. Like the build, it reads the world catalogue
 * (src/world/catalogue.ts): the canonical contracts (tokens, PancakeSwap router and factory,
 * PancakeSquad) are the fork's own; the pairs come from the fork's factory; every holding, allowance
 * and stake of the catalogue is put there by the harness with cheat methods (storage writes,
 * `anvil_setBalance`, impersonation) and real transactions from fork-only accounts; and the own
 * contracts are deployed from the build's compiled artifacts (fixtures/artifacts).
 */
import { createHash } from "node:crypto";
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
  delegateImplementationAbi,
  erc20Abi,
  erc721Abi,
  erc1155Abi,
  factoryAbi,
  pairAbi,
  rewardPoolAbi,
  routerAbi,
  wbnbAbi,
} from "../abis.ts";
import { type Artifact, loadArtifact } from "../artifacts.ts";
import {
  type AccountName,
  ALLOWANCES,
  CATALOGUE,
  type CanonicalTokenKey,
  type Catalogue,
  canonicalAddresses,
  deploymentOrder,
  formatRatio,
  HOLDINGS,
  type Holder,
  keysOfKind,
  NATIVE_BALANCES,
  NATIVE_WRAPPER,
  type Placement,
  resolveArgs,
  STAKE_AGE_SECONDS,
  STAKES,
  storageSlotTable,
  tokenTable,
  WORLD_FACTS,
  worldConstants,
} from "../catalogue.ts";
import { HARD_BUILD_STEPS, type HardBuildApi } from "../hard/build/index.ts";
import { anvilRpc, primeWorldClock } from "../pool.ts";
import { minedReceipt } from "../receipt.ts";
import type { ContractKey, TokenKey, World } from "../world.ts";
import {
  type AllowanceSlot,
  type BalanceSlot,
  findAllowanceSlot,
  findBalanceSlot,
  writeTokenBalance,
} from "./slots.ts";

/**
 * Fork-only accounts: keccak256 of a constant label, distinct from the local world's keys, so on a
 * fork of the local world (the offline test) nothing the agent holds comes from the world's build.
 */
const keyOf = (label: string): Hex => keccak256(toHex(`evm-questbench/fork/v1/${label}`));
export const FORK_KEYS = { agent: keyOf("agent"), rich: keyOf("rich"), treasury: keyOf("treasury") } as const;

/** A canonical ERC-20 (catalogue token at a canonical address): the fork's own, its slots probed. */
export type ProbedToken = CanonicalTokenKey;

/** Whole tokens of each canonical token (but the native wrapper) the treasury gets by storage writes. */
const TREASURY_TOKENS = "1000000000";
/** WBNB the treasury wraps by a real deposit (WBNB stays fully backed, docs/TASKS.md "Accounts and holdings"). */
const TREASURY_WBNB = "10000";
/** WBNB the treasury wraps for the hard world's build steps (pools, lending markets), as the world build does. */
const HARD_WORLD_WBNB = "10000";
/** LP the treasury keeps of each pair someone holds: pre-states plant LP from it (≤ 1 LPwu today). */
const LP_STOCK = parseEther("100");

/** What a fork run records about the chain it forked (results.json `manifest.fork`). */
export type ForkManifest = {
  chainId: number;
  /** The pinned block (`--fork-block latest` resolved once, before any instance booted). */
  blockNumber: number;
  blockHash: Hex;
  /** The fork URL with credentials redacted (src/world/fork/redact.ts). */
  url: string;
};

/** One requirement of the world (docs/TASKS.md "The world") checked after provisioning; tasks naming `keys` need it. */
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
  pairs: Record<string, { address: Address; created: boolean }>;
  /** Holder of PancakeSquad #1 on the fork before it was moved to the agent. */
  pancakeSquadPreviousOwner: Address | null;
  requirements: Requirement[];
  /** Steps that threw, by step name (redacted messages). */
  errors: Record<string, string>;
  timings: { probeMs: number; provisionMs: number };
};

const lower = (a: string) => a.toLowerCase();
/** A message on one line (viem's short messages span two). */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();
const isAccount = (holder: string): holder is AccountName =>
  holder === "agent" || holder === "rich" || holder === "treasury";

/** Parameters of {@link provisionFork}. */
export type ProvisionForkParameters = {
  /** Direct URL of the forked Anvil (cheat methods allowed: the harness's own channel). */
  url: string;
  /** Chain id of the fork (56 for BNB Smart Chain). */
  chainId: number;
  /** The world to provision; default the world catalogue (src/world/catalogue.ts). */
  catalogue?: Catalogue | undefined;
  /** Where the own contracts' artifacts are; default `fixtures/artifacts`. */
  artifactsDir?: string | undefined;
};

/**
 * Provisions the world (docs/TASKS.md "The world") on a freshly booted fork and returns the world (same shape as
 * world.json, with the fork's addresses) plus a report. Deterministic: the same fork block gives
 * the same addresses, balances and snapshot head on every pool instance.
 *
 * Steps (all from the catalogue): pin the clock (1 s per block); fund the fork accounts with BNB;
 * probe the balance and allowance slots of the canonical tokens ({@link findBalanceSlot}); fund the
 * treasury and the accounts' canonical-token holdings by storage writes; wrap WBNB holdings by real
 * deposits; read the pairs from the factory (`getPair`), creating and seeding any that is missing;
 * mint the LP holdings by `addLiquidity`; deploy the own contracts; plant the remaining holdings
 * from the treasury; move PancakeSquad #1 to the agent (impersonating its holder); grant the
 * allowances; make the stakes {@link STAKE_AGE_SECONDS} before the snapshot block; set the BNB
 * balances. Each step that fails is recorded; the requirements are then verified by reading the chain.
 *
 * @throws {ChainError} when the fork is not chain 56 or a canonical contract has no code (nothing
 *   of the benchmark can run); failures of single steps are reported, not thrown.
 */
export async function provisionFork(
  parameters: ProvisionForkParameters,
): Promise<{ world: World; report: ProvisionReport }> {
  const { url, chainId } = parameters;
  const catalogue: Catalogue = parameters.catalogue ?? CATALOGUE;
  // The canonical contracts the fork must already have code at (docs/TASKS.md "Tokens and DEX"); their tokens are probed.
  const CANONICAL = canonicalAddresses(catalogue);
  const PROBED_TOKENS = keysOfKind("canonical", catalogue).filter(
    (key) => catalogue[key]!.token,
  ) as CanonicalTokenKey[];
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

  /** The receipt of a sent transaction; a reverted one fails provisioning. */
  async function receipt(hash: Hex, what: string) {
    const r = await minedReceipt(client, hash, `Fork provisioning: ${what}`);
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
  const deployArtifact = async (a: Artifact, args: unknown[] = []) => {
    const { contractAddress } = await send(
      treasury,
      null,
      encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args } as never),
      `deploying ${a.contractName}`,
    );
    return getAddress(contractAddress!);
  };
  const deploy = (name: string, args: unknown[] = []) =>
    deployArtifact(loadArtifact(name, parameters.artifactsDir), args);
  const signer: Record<AccountName, PrivateKeyAccount> = { agent, rich, treasury };
  const accounts: Record<AccountName, Address> = {
    agent: agent.address,
    rich: rich.address,
    treasury: treasury.address,
  };
  const contracts: Partial<Record<string, Address>> = { ...CANONICAL };
  const addressOf = (holder: Holder) => (isAccount(holder) ? accounts[holder] : contracts[holder]);
  const need = (address: Address | undefined, key: string) => {
    if (!address) throw new ChainError(`${key} has no address (an earlier step failed).`);
    return address;
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
  // Twice the snapshot's BNB while provisioning (gas); set to the exact amounts at the end.
  for (const [name, amount] of Object.entries(NATIVE_BALANCES))
    await rpc("anvil_setBalance", [accounts[name as AccountName], numberToHex(2n * parseEther(amount!))]);

  // --- Slots by probing. -----------------------------------------------------------------------
  const probeStart = performance.now();
  const slots = {} as ProvisionReport["slots"];
  for (const key of PROBED_TOKENS) {
    const balance = await step(`probe ${key} balance`, () =>
      findBalanceSlot({ url, token: CANONICAL[key]! }),
    );
    const allowance = await step(`probe ${key} allowance`, () =>
      findAllowanceSlot({ url, token: CANONICAL[key]! }),
    );
    slots[key] = {
      balance: balance ? { slot: balance.slot, layout: balance.layout, offset: balance.offset } : null,
      allowance: allowance ? { slot: allowance.slot, layout: allowance.layout } : null,
    };
  }
  const probeMs = Math.round(performance.now() - probeStart);

  const holdingStep = (holder: Holder, token: string) => `holding ${holder} ${token}`;
  const fund = (key: CanonicalTokenKey, holder: Holder, amount: string) =>
    step(holdingStep(holder, key), async () => {
      const slot = slots[key].balance;
      if (!slot) throw new ChainError(`${key}: no balance slot found by probing.`);
      const to = need(addressOf(holder), holder);
      await writeTokenBalance({ url, token: CANONICAL[key]!, slot, holder: to, amount: parseEther(amount) });
    });
  const stakedBy = (holder: Holder, token: string) =>
    STAKES.filter((s) => s.holder === holder && s.token === token).reduce(
      (sum, s) => sum + parseEther(s.amount),
      0n,
    );
  const isProbed = (key: string): key is CanonicalTokenKey => (PROBED_TOKENS as string[]).includes(key);
  const planted = new Set<(typeof HOLDINGS)[number]>();

  for (const key of PROBED_TOKENS) if (key !== NATIVE_WRAPPER) await fund(key, "treasury", TREASURY_TOKENS);
  for (const h of HOLDINGS)
    if (h.token !== NATIVE_WRAPPER && isProbed(h.token) && isAccount(h.holder)) {
      await fund(h.token, h.holder, h.amount);
      planted.add(h);
    }
  // WBNB stays fully backed (docs/TASKS.md "Accounts and holdings"): real deposits, never storage writes.
  const wrapper = CANONICAL[NATIVE_WRAPPER]!;
  const wrapperAbi = catalogue[NATIVE_WRAPPER]!.abi ?? wbnbAbi;
  await step("treasury WBNB deposit", () =>
    call(treasury, wrapper, wrapperAbi, "deposit", [], parseEther(TREASURY_WBNB)),
  );
  for (const h of HOLDINGS.filter((h) => h.token === NATIVE_WRAPPER)) {
    planted.add(h);
    await step(holdingStep(h.holder, h.token), () => {
      if (!isAccount(h.holder)) throw new ChainError(`Only an account can hold ${h.token} by deposit.`);
      return call(signer[h.holder], wrapper, wrapperAbi, "deposit", [], parseEther(h.amount));
    });
  }
  const router = CANONICAL.pancake_router!;
  const factory = CANONICAL.pancake_factory!;
  for (const key of PROBED_TOKENS)
    await step(`treasury approves the router for ${key}`, () =>
      call(treasury, CANONICAL[key]!, erc20Abi, "approve", [router, maxUint256]),
    );

  // --- Pairs from the factory; a missing one is created and seeded with the §2.2 reserves. -------
  const deadline = 2n ** 40n;
  const pairs = {} as ProvisionReport["pairs"];
  for (const key of keysOfKind("pair", catalogue)) {
    const { tokenA, tokenB, amountA, amountB } = catalogue[key]!.place as Extract<
      Placement,
      { kind: "pair" }
    >;
    await step(key, async () => {
      const [a, b] = [need(contracts[tokenA], tokenA), need(contracts[tokenB], tokenB)];
      let pair = getAddress(await read<Address>(factory, factoryAbi, "getPair", [a, b]));
      let created = false;
      if (pair === zeroAddress) {
        await call(treasury, factory, factoryAbi, "createPair", [a, b]);
        pair = getAddress(await read<Address>(factory, factoryAbi, "getPair", [a, b]));
        created = true;
      }
      const [r0, r1] = await read<[bigint, bigint, number]>(pair, pairAbi, "getReserves");
      if (r0 === 0n || r1 === 0n)
        await call(treasury, router, routerAbi, "addLiquidity", [
          a,
          b,
          parseEther(amountA),
          parseEther(amountB),
          0n,
          0n,
          treasury.address,
          deadline,
        ]);
      pairs[key] = { address: pair, created };
      contracts[key] = pair;
    });
  }

  // P (docs/TASKS.md "Notation") is a constant of the pinned block: read before provisioning mints any LP.
  let P = "0";
  await step("P", async () => {
    const pair = need(contracts.pair_wbnb_usdt, "pair_wbnb_usdt");
    const [token0, [r0, r1]] = await Promise.all([
      read<Address>(pair, pairAbi, "token0"),
      read<[bigint, bigint, number]>(pair, pairAbi, "getReserves"),
    ]);
    P = lower(token0) === lower(CANONICAL.usdt!) ? formatRatio(r0, r1) : formatRatio(r1, r0);
  });

  /** The treasury mints ≥ `lp` wei of a pair's LP through the router (1 % over the pro-rata amounts). */
  async function mintLp(pair: Address, lp: bigint) {
    const [token0, token1, [r0, r1], supply] = await Promise.all([
      read<Address>(pair, pairAbi, "token0"),
      read<Address>(pair, pairAbi, "token1"),
      read<[bigint, bigint, number]>(pair, pairAbi, "getReserves"),
      read<bigint>(pair, pairAbi, "totalSupply"),
    ]);
    const desired = (reserve: bigint) => (((lp * reserve) / supply + 1n) * 101n) / 100n + 1_000n;
    await call(treasury, router, routerAbi, "addLiquidity", [
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
  // LP holdings: the treasury mints every holder's LP (staked part included) plus its stock, then
  // hands the accounts theirs (contracts get theirs once deployed, below).
  const pairKeys = new Set(keysOfKind("pair", catalogue));
  const minted = new Set<string>();
  for (const h of HOLDINGS.filter((h) => pairKeys.has(h.token))) {
    await step(holdingStep(h.holder, h.token), async () => {
      const pair = need(contracts[h.token], h.token);
      if (!minted.has(h.token)) {
        minted.add(h.token);
        const total = HOLDINGS.filter((x) => x.token === h.token).reduce(
          (sum, x) => sum + parseEther(x.amount) + stakedBy(x.holder, x.token),
          0n,
        );
        await mintLp(pair, total + LP_STOCK);
      }
      if (isAccount(h.holder))
        await call(treasury, pair, pairAbi, "transfer", [
          accounts[h.holder],
          parseEther(h.amount) + stakedBy(h.holder, h.token),
        ]);
    });
    if (isAccount(h.holder)) planted.add(h);
  }

  // --- Own contracts (the build's artifacts and constructor arguments). ------------------------
  for (const key of deploymentOrder(catalogue))
    await step(`deploy ${key}`, async () => {
      const place = catalogue[key]!.place as Extract<Placement, { kind: "deployed" }>;
      const args = resolveArgs(place.args, {
        accounts,
        contracts: contracts as Record<string, Address>,
      });
      contracts[key] = await deploy(place.artifact, args);
    });
  for (const key of keysOfKind("account", catalogue))
    contracts[key] = accounts[(catalogue[key]!.place as { account: AccountName }).account];

  // --- The remaining holdings, from the treasury. ---------------------------------------------
  for (const h of HOLDINGS.filter((h) => !planted.has(h)))
    await step(holdingStep(h.holder, h.token), () =>
      call(treasury, need(contracts[h.token], h.token), erc20Abi, "transfer", [
        need(addressOf(h.holder), h.holder),
        parseEther(h.amount) + stakedBy(h.holder, h.token),
      ]),
    );

  // --- PancakeSquad #1 moves from its holder on the fork to the agent. ------------------------
  let squadOwner: Address | null = null;
  const squad = CANONICAL.pancake_squad!;
  const squadId = BigInt(WORLD_FACTS.pancakeSquadAgentTokenId);
  await step("PancakeSquad #1 to the agent", async () => {
    squadOwner = getAddress(await read<Address>(squad, erc721Abi, "ownerOf", [squadId]));
    if (lower(squadOwner) === lower(agent.address)) return;
    const balance = await client.getBalance({ address: squadOwner });
    await rpc("anvil_impersonateAccount", [squadOwner]);
    try {
      await rpc("anvil_setBalance", [squadOwner, numberToHex(balance + parseEther("1"))]);
      const hash = await rpc<Hex>("eth_sendTransaction", [
        {
          from: squadOwner,
          to: squad,
          data: encodeFunctionData({
            abi: erc721Abi,
            functionName: "transferFrom",
            args: [squadOwner, agent.address, squadId],
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

  for (const a of ALLOWANCES)
    await step(`allowance ${a.owner} ${a.token}`, () =>
      call(signer[a.owner], need(contracts[a.token], a.token), erc20Abi, "approve", [
        need(addressOf(a.spender), a.spender),
        parseEther(a.amount),
      ]),
    );

  // --- The hard world, by the world build's own steps (same catalogue, same seeds). -------------
  // They pool and lend WBNB too: the treasury wraps their share first, as the build does.
  if (Object.values(catalogue).some((e) => e.set === "hard"))
    await step("treasury WBNB deposit for the hard world", () =>
      call(treasury, wrapper, wrapperAbi, "deposit", [], parseEther(HARD_WORLD_WBNB)),
    );
  const api: HardBuildApi = {
    rpc,
    tx: (from, to, abi, fn, args = [], value = 0n) => call(from, to, abi, fn, args, value),
    deploy: deployArtifact,
    art: (ref) => loadArtifact(ref, parameters.artifactsDir),
    call: (to, abi, fn, args = []) => read(to, abi, fn, args),
    contracts: contracts as Record<string, Address>,
    signer,
    log: () => {},
  };
  for (const hard of HARD_BUILD_STEPS) await step(`hard world: ${hard.name}`, () => hard.run(api));

  // --- The stakes, STAKE_AGE_SECONDS before the snapshot block (docs/TASKS.md "Accounts and holdings"). -
  let stakeTimestamp = 0;
  for (const s of STAKES)
    await step(`stake ${s.holder} ${s.pool}`, async () => {
      const [pool, token] = [need(contracts[s.pool], s.pool), need(contracts[s.token], s.token)];
      const amount = parseEther(s.amount);
      await call(signer[s.holder], token, erc20Abi, "approve", [pool, amount]);
      const { blockNumber } = await call(signer[s.holder], pool, catalogue[s.pool]!.abi!, "deposit", [
        amount,
      ]);
      stakeTimestamp = Number((await client.getBlock({ blockNumber })).timestamp);
    });
  if (stakeTimestamp) await rpc("evm_setNextBlockTimestamp", [stakeTimestamp + STAKE_AGE_SECONDS]);
  await rpc("evm_mine");
  for (const [name, amount] of Object.entries(NATIVE_BALANCES))
    await rpc("anvil_setBalance", [accounts[name as AccountName], numberToHex(parseEther(amount!))]);

  // --- The world object. -----------------------------------------------------------------------
  const head = await client.getBlock();
  const genesis = await client.getBlock({ blockNumber: 0n });
  const world_contracts = Object.fromEntries(
    Object.keys(catalogue).map((key) => [key, contracts[key] ?? zeroAddress]),
  ) as Record<ContractKey, Address>;
  const tokens = tokenTable(catalogue) as World["tokens"];
  for (const key of PROBED_TOKENS)
    await step(`metadata ${key}`, async () => {
      const [symbol, name, decimals] = await Promise.all([
        read<string>(world_contracts[key], erc20Abi, "symbol"),
        read<string>(world_contracts[key], erc20Abi, "name"),
        read<number>(world_contracts[key], erc20Abi, "decimals"),
      ]);
      tokens[key as TokenKey] = { symbol, name, decimals: Number(decimals) };
    });
  const storageSlots = storageSlotTable(catalogue) as World["storageSlots"];
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
    contracts: world_contracts,
    tokens,
    constants: worldConstants(P, stakeTimestamp),
    storageSlots,
  };
  const world: World = {
    ...body,
    // Identifies the provisioned state: same fork block and provisioning → same id (merge compares it).
    worldId: `sha256:${createHash("sha256")
      .update(JSON.stringify({ forkHead: head.hash, body }))
      .digest("hex")}`,
  };
  const requirements = await verifyRequirements(client, world, errors, catalogue);
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
 * Reads back every holding and contract state of the world the tasks rely on. Each requirement
 * names the `deployedContracts` keys whose tasks need it.
 */
export async function verifyRequirements(
  client: PublicClient,
  world: World,
  errors: Record<string, string> = {},
  catalogue: Catalogue = CATALOGUE,
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
    errorPrefixes: string | string[],
    check: () => Promise<string | true>,
  ) {
    let result: string | true;
    try {
      result = await check();
    } catch (error) {
      result = `could not be read (${oneLine((error as { shortMessage?: string }).shortMessage ?? (error as Error).message)})`;
    }
    const cause = result === true ? "" : [errorPrefixes].flat().map(why).filter(Boolean).join("; ");
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
  const accounts: Record<AccountName, Address> = {
    agent: A,
    rich: world.rich.address,
    treasury: world.treasury.address,
  };
  const addressOf = (holder: Holder) => (isAccount(holder) ? accounts[holder] : c[holder]);
  /** The keys whose tasks need a holder: R is `rich_address`, a contract its own key. */
  const keysOf = (holder: Holder): ContractKey[] =>
    holder === "rich" ? ["rich_address"] : isAccount(holder) ? [] : [holder];
  const label = (key: ContractKey) =>
    (world.tokens as Record<string, { symbol: string }>)[key]?.symbol ?? key;

  for (const [name, amount] of Object.entries(NATIVE_BALANCES) as [AccountName, string][])
    await need(`${name} holds ${amount} BNB`, keysOf(name), name, async () =>
      (await client.getBalance({ address: accounts[name] })) === parseEther(amount)
        ? true
        : `${name} BNB balance is not ${amount}`,
    );
  for (const h of HOLDINGS)
    await need(
      `${h.holder} holds ${h.amount} ${label(h.token)}`,
      [h.token, ...keysOf(h.holder)],
      [`holding ${h.holder} ${h.token}`, `probe ${h.token}`, `deploy ${h.token}`, `deploy ${h.holder}`],
      () => balanceIs(c[h.token], addressOf(h.holder), h.amount, `${h.holder} ${label(h.token)}`),
    );
  for (const key of keysOfKind("pair", catalogue) as ContractKey[])
    await need(`${key} has liquidity`, [key], key, async () => {
      const [r0, r1] = await read<[bigint, bigint, number]>(c[key], pairAbi, "getReserves");
      return r0 > 0n && r1 > 0n ? true : `${key} has no reserves`;
    });
  for (const key of new Set(HOLDINGS.filter((h) => h.token.startsWith("pair_")).map((h) => h.token)))
    await need(`treasury holds ≥ 100 LP of ${key} for pre-states`, [key], `holding`, async () => {
      const stock = await read<bigint>(c[key], erc20Abi, "balanceOf", [world.treasury.address]);
      return stock >= LP_STOCK ? true : `treasury holds ${stock} wei of ${key}`;
    });
  for (const s of STAKES)
    await need(
      `${s.holder} stakes ${s.amount} ${label(s.token)} in ${s.pool}`,
      [s.pool, s.token, ...keysOf(s.holder)],
      [`stake ${s.holder} ${s.pool}`, `deploy ${s.pool}`],
      async () => {
        const abi = catalogue[s.pool]?.abi ?? rewardPoolAbi;
        const [staked] = await read<bigint[]>(c[s.pool], abi, "userInfo", [addressOf(s.holder)]);
        return staked === parseEther(s.amount)
          ? true
          : `${s.holder}'s stake is ${staked} wei, expected ${parseEther(s.amount)}`;
      },
    );
  for (const key of keysOfKind("deployed", catalogue) as ContractKey[])
    await need(`${key} deployed`, [key], `deploy ${key}`, async () =>
      c[key] !== zeroAddress && (await client.getCode({ address: c[key] })) ? true : `${key} has no code`,
    );
  // The hard world: its build steps depend on one another (tokens first, then the pools, vaults and
  // markets of those tokens), so one that failed leaves no hard task's world as the build makes it:
  // every task naming a hard key relies on all of them.
  const hardKeys = Object.keys(catalogue).filter((key) => catalogue[key]!.set === "hard") as ContractKey[];
  if (hardKeys.length > 0)
    await need("hard world built", hardKeys, "hard world:", async () => {
      const failed = Object.keys(errors).filter((name) => name.startsWith("hard world:"));
      return failed.length === 0 ? true : `${failed.length} of its build steps failed`;
    });
  for (const key of keysOfKind("built", catalogue) as ContractKey[])
    await need(`${key} built`, [key], "hard world", async () =>
      c[key] !== zeroAddress && (await client.getCode({ address: c[key] })) ? true : `${key} has no code`,
    );
  for (const a of ALLOWANCES)
    await need(
      `${a.owner} approved ${a.spender} for ${a.amount} ${label(a.token)}`,
      [a.token, ...keysOf(a.owner), ...keysOf(a.spender)],
      `allowance ${a.owner} ${a.token}`,
      async () => {
        const allowance = await read<bigint>(c[a.token], erc20Abi, "allowance", [
          accounts[a.owner],
          addressOf(a.spender),
        ]);
        return allowance === parseEther(a.amount)
          ? true
          : `allowance(${a.owner}, ${a.spender}) is ${allowance}`;
      },
    );
  const { erc721AgentTokenIds: qnftIds, pancakeSquadAgentTokenId: squadId } = world.constants;
  await need(`agent owns QNFT ${qnftIds[0]}–${qnftIds.at(-1)}`, ["erc721_token"], "erc721", async () => {
    for (const id of qnftIds)
      if (lower(await read<Address>(c.erc721_token, erc721Abi, "ownerOf", [BigInt(id)])) !== lower(A))
        return `QNFT #${id} is not the agent's`;
    return true;
  });
  await need(`agent owns PancakeSquad #${squadId}`, ["pancake_squad"], "PancakeSquad", async () =>
    lower(await read<Address>(c.pancake_squad, erc721Abi, "ownerOf", [BigInt(squadId)])) === lower(A)
      ? true
      : `PancakeSquad #${squadId} is not the agent's`,
  );
  await need("agent holds ERC-1155 ids 1–3", ["erc1155_token"], "erc1155", async () => {
    for (const [id, units] of Object.entries(world.constants.erc1155AgentBalances))
      if ((await read<bigint>(c.erc1155_token, erc1155Abi, "balanceOf", [A, BigInt(id)])) !== BigInt(units))
        return `ERC-1155 id ${id} is not ${units}`;
    return true;
  });
  const values = world.constants.delegateCallValues;
  await need(
    `proxy holds ${values.proxy}, implementation ${values.implementation}`,
    ["delegate_call_proxy", "delegate_call_implementation"],
    "delegate",
    async () => {
      const proxy = await read<bigint>(c.delegate_call_proxy, delegateImplementationAbi, "getValue");
      const impl = await read<bigint>(c.delegate_call_implementation, delegateImplementationAbi, "getValue");
      return proxy === BigInt(values.proxy) && impl === BigInt(values.implementation)
        ? true
        : `getValue() is ${proxy} / ${impl}`;
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
