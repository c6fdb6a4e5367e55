/**
 * What every phase of fork provisioning shares (README "Fork mode"): the fork's clients, the
 * fork-only accounts, the contracts found or deployed so far, the snapshot to set up (holdings,
 * allowances, stakes, BNB balances: the caller's or the catalogue's), and `step`,
 * which runs one step and records its failure (by step name) instead of throwing. The phases
 * (src/world/fork/phases/) read it and write only `contracts` and `errors`; what else a phase
 * finds it returns to the orchestrator (src/world/fork/provision.ts).
 */
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
  type PublicClient,
  parseEther,
  type TransactionReceipt,
  toHex,
} from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { ChainError } from "../../errors.ts";
import { wbnbAbi } from "../abis.ts";
import { type Artifact, loadArtifact } from "../artifacts.ts";
import {
  type AccountName,
  ALLOWANCES,
  CATALOGUE,
  type CanonicalTokenKey,
  type Catalogue,
  HOLDINGS,
  type Holder,
  type Holding,
  NATIVE_BALANCES,
  NATIVE_WRAPPER,
  STAKES,
} from "../catalogue.ts";
import { canonicalAddresses, keysOfKind } from "../catalogueViews.ts";
import { anvilRpc } from "../pool.ts";
import { minedReceipt } from "../receipt.ts";
import type { AllowanceSlot, BalanceSlot } from "./slots.ts";

/**
 * Fork-only accounts: keccak256 of a constant label, distinct from the local world's keys, so on a
 * fork of the local world (the offline test) nothing the agent holds comes from the world's build.
 */
const keyOf = (label: string): Hex => keccak256(toHex(`evm-questbench/fork/v1/${label}`));
export const FORK_KEYS = { agent: keyOf("agent"), rich: keyOf("rich"), treasury: keyOf("treasury") } as const;

/** A canonical ERC-20 (catalogue token at a canonical address): the fork's own, its slots probed. */
export type ProbedToken = CanonicalTokenKey;

/** Whole tokens of each canonical token (but the native wrapper) the treasury gets by storage writes. */
export const TREASURY_TOKENS = "1000000000";
/** WBNB the treasury wraps by a real deposit (WBNB stays fully backed, docs/TASKS.md "Accounts and holdings"). */
export const TREASURY_WBNB = "10000";
/** WBNB the treasury wraps for the hard world's build steps (pools, lending markets), as the world build does. */
export const HARD_WORLD_WBNB = "10000";
/** LP the treasury keeps of each pair someone holds: pre-states plant LP from it (≤ 1 LPwu today). */
export const LP_STOCK = parseEther("100");

/** Probed storage slots of the canonical tokens (null: not found, see the report's `errors`). */
export type ProbedSlots = Record<
  ProbedToken,
  { balance: BalanceSlot | null; allowance: AllowanceSlot | null }
>;

/** Pair addresses from the factory; `created` when the fork lacked the pair and provisioning made it. */
export type ForkPairs = Record<string, { address: Address; created: boolean }>;

export const lower = (a: string) => a.toLowerCase();
/** A message on one line (viem's short messages span two). */
export const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();
export const isAccount = (holder: string): holder is AccountName =>
  holder === "agent" || holder === "rich" || holder === "treasury";
/** The step name a holding is planted (and its failure recorded) under. */
export const holdingStep = (holder: Holder, token: string) => `holding ${holder} ${token}`;
/** An ERC-20 allowance at the snapshot, granted by its owner (a line of the catalogue's `ALLOWANCES`). */
export type Allowance = (typeof ALLOWANCES)[number];
/** A stake at the snapshot, deposited by its holder (a line of the catalogue's `STAKES`). */
export type Stake = (typeof STAKES)[number];
/** BNB (whole coins) each account holds at the snapshot (the catalogue's `NATIVE_BALANCES`). */
export type NativeBalances = typeof NATIVE_BALANCES;

/**
 * The world a provisioning sets up and then checks (docs/TASKS.md "Accounts and holdings"): the
 * catalogue's contracts and the snapshot's lists.
 */
export type WorldLists = {
  catalogue: Catalogue;
  /** ERC-20 balances to plant. */
  holdings: readonly Holding[];
  /** ERC-20 allowances, each granted by its owner. */
  allowances: readonly Allowance[];
  /** Stakes, each deposited by its holder (its amount planted with the holder's holding of the token). */
  stakes: readonly Stake[];
  /** The accounts' BNB at the snapshot. */
  nativeBalances: NativeBalances;
};

/** The built-in world: the catalogue and its `HOLDINGS`, `ALLOWANCES`, `STAKES`, `NATIVE_BALANCES`. */
export const BUILT_IN_WORLD: WorldLists = {
  catalogue: CATALOGUE,
  holdings: HOLDINGS,
  allowances: ALLOWANCES,
  stakes: STAKES,
  nativeBalances: NATIVE_BALANCES,
};

/**
 * Wei of `token` that `holder` stakes at the snapshot: planted with its holding of that token (so a
 * staked token needs a holding line, "0" for none left after the deposit), then deposited.
 */
export const stakedBy = (stakes: readonly Stake[], holder: Holder, token: string) =>
  stakes
    .filter((s) => s.holder === holder && s.token === token)
    .reduce((sum, s) => sum + parseEther(s.amount), 0n);

/** The native wrapper's address and ABI (WBNB is held by deposit, never by storage writes). */
export const wrapperOf = (p: Pick<Provisioning, "canonical" | "catalogue">) => ({
  wrapper: p.canonical[NATIVE_WRAPPER]!,
  wrapperAbi: p.catalogue[NATIVE_WRAPPER]!.abi ?? wbnbAbi,
});

/** What the phases of one provisioning share (see the module comment). */
export type Provisioning = WorldLists & {
  /** Direct URL of the forked Anvil. */
  url: string;
  artifactsDir: string | undefined;
  /** The canonical contracts the fork must already have code at (docs/TASKS.md "The world"). */
  canonical: Record<string, Address>;
  /** The canonical tokens, whose slots are probed. */
  probedTokens: CanonicalTokenKey[];
  client: PublicClient;
  rpc: <T = unknown>(method: string, params?: unknown[]) => Promise<T>;
  read: <T>(address: Address, abi: Abi, functionName: string, args?: unknown[]) => Promise<T>;
  /** The receipt of a sent transaction; a reverted one fails provisioning. */
  receipt: (hash: Hex, what: string) => Promise<TransactionReceipt>;
  /** Sends `fn(args)` from an account and waits for it to succeed. */
  call: (
    from: PrivateKeyAccount,
    to: Address,
    abi: Abi,
    fn: string,
    args: unknown[],
    value?: bigint,
  ) => Promise<{ contractAddress: Address | null; blockNumber: bigint }>;
  /** Deploys an artifact from the treasury. */
  deployArtifact: (a: Artifact, args?: unknown[]) => Promise<Address>;
  /** Deploys the artifact of that name (from `artifactsDir`) from the treasury. */
  deploy: (name: string, args?: unknown[]) => Promise<Address>;
  signer: Record<AccountName, PrivateKeyAccount>;
  accounts: Record<AccountName, Address>;
  /** Catalogue key → address, as found or deployed so far (the canonical ones from the start). */
  contracts: Partial<Record<string, Address>>;
  addressOf: (holder: Holder) => Address | undefined;
  /** The address, or a ChainError saying an earlier step failed. */
  need: (address: Address | undefined, key: string) => Address;
  /** Step name → its failure (one line), for the report. */
  errors: Record<string, string>;
  /** Runs one step; a throw is recorded under `name` in `errors` and gives undefined. */
  step: <T>(name: string, fn: () => Promise<T>) => Promise<T | undefined>;
};

/**
 * Parameters of {@link openProvisioning} and of provisionFork (src/world/fork/provision.ts). Each
 * list of the world defaults to the built-in one ({@link BUILT_IN_WORLD}); a custom catalogue passes
 * its own (e.g. a holding of its new token, a stake in its new pool).
 */
export type ProvisioningParameters = {
  /** Direct URL of the forked Anvil (cheat methods allowed: the harness's own channel). */
  url: string;
  /** Chain id the fork must answer: 56 (BNB Smart Chain), the only chain fork mode runs on. */
  chainId: number;
  /** The world to provision; default the world catalogue (src/world/catalogue.ts). */
  catalogue?: Catalogue | undefined;
  /** The ERC-20 holdings to plant and check; default the catalogue's `HOLDINGS`. */
  holdings?: readonly Holding[] | undefined;
  /** The allowances to grant and check; default the catalogue's `ALLOWANCES`. */
  allowances?: readonly Allowance[] | undefined;
  /** The stakes to deposit and check; default the catalogue's `STAKES`. */
  stakes?: readonly Stake[] | undefined;
  /**
   * The accounts' BNB at the snapshot, set exactly and checked; default the catalogue's
   * `NATIVE_BALANCES`. The agent and rich, when not named, hold none.
   */
  nativeBalances?: NativeBalances | undefined;
  /** Where the own contracts' artifacts are; default `fixtures/artifacts`. */
  artifactsDir?: string | undefined;
};

/** The clients, accounts and bookkeeping of one provisioning; sends nothing to the fork. */
export function openProvisioning(parameters: ProvisioningParameters): Provisioning {
  const { url, chainId } = parameters;
  const catalogue: Catalogue = parameters.catalogue ?? BUILT_IN_WORLD.catalogue;
  const canonical = canonicalAddresses(catalogue);
  const probedTokens = keysOfKind("canonical", catalogue).filter(
    (key) => catalogue[key]!.token,
  ) as CanonicalTokenKey[];
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
  const contracts: Partial<Record<string, Address>> = { ...canonical };
  const addressOf = (holder: Holder) => (isAccount(holder) ? accounts[holder] : contracts[holder]);
  const need = (address: Address | undefined, key: string) => {
    if (!address) throw new ChainError(`${key} has no address (an earlier step failed).`);
    return address;
  };
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
  return {
    url,
    catalogue,
    holdings: parameters.holdings ?? BUILT_IN_WORLD.holdings,
    allowances: parameters.allowances ?? BUILT_IN_WORLD.allowances,
    stakes: parameters.stakes ?? BUILT_IN_WORLD.stakes,
    nativeBalances: parameters.nativeBalances ?? BUILT_IN_WORLD.nativeBalances,
    artifactsDir: parameters.artifactsDir,
    canonical,
    probedTokens,
    client,
    rpc,
    read,
    receipt,
    call,
    deployArtifact,
    deploy,
    signer,
    accounts,
    contracts,
    addressOf,
    need,
    errors,
    step,
  };
}
