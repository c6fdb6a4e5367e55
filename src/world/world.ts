import { readFileSync } from "node:fs";
import type { Address, Hex } from "viem";
import { ChainError } from "../errors.ts";
import { CATALOGUE, type ContractKey, type TokenKey, type TokenMeta } from "./catalogue.ts";
import { catalogueKeys } from "./catalogueViews.ts";
import { worldJsonPath } from "./paths.ts";

/**
 * Every `deployedContracts` key (63: the paper's 30 and the hard world's 33; docs/TASKS.md
 * "Auxiliary contracts"), in prompt order: the keys of the world catalogue (src/world/catalogue.ts). `rich_address` is an EOA; every
 * other key has code.
 */
export const CONTRACT_KEYS: readonly ContractKey[] = catalogueKeys(CATALOGUE);

export type { ContractKey, TokenKey };

/** An account whose key the harness holds (never shown to a model). */
export type WorldAccount = { address: Address; privateKey: Hex };

/** Token metadata as the contract reports it (all world tokens have 18 decimals). */
export type TokenInfo = TokenMeta;

/**
 * The world's address book, `fixtures/world/world.json`, written by `fixtures/build-world.ts`.
 * Amounts are wei as base-10 strings; times are unix seconds.
 */
export type World = {
  schemaVersion: 1;
  /** `sha256:<hex>` of state.json's bytes: identifies the chain state a run started from. */
  worldId: string;
  chainId: 56;
  /** Timestamp of block 0 (seconds). */
  genesisTimestamp: number;
  /** Head of the state file: every instance starts here; the next block is `timestamp + 1`. */
  snapshot: { blockNumber: number; timestamp: number };
  /** The agent (docs/TASKS.md "Accounts and holdings"); the harness signs with this key. */
  agent: WorldAccount;
  /** Rich account R (`rich_address`): 5,000 USDT, 1 BNB, approved A for 1,000 USDT. */
  rich: WorldAccount;
  /** Treasury: the rest of every supply and all pool LP; source of planted balances. */
  treasury: WorldAccount;
  /** Checksummed addresses of the `deployedContracts` keys (the world catalogue's 29). */
  contracts: Record<ContractKey, Address>;
  tokens: Record<TokenKey, TokenInfo>;
  constants: {
    /** USDT per WBNB in `pair_wbnb_usdt` at the snapshot (reserve ratio, 18 digits, truncated). */
    P: string;
    /** Seconds each block advances the clock. */
    blockTimeSeconds: 1;
    /** `simple_reward_pool`: CAKE wei per second per 1e18 LP wei (0.01 CAKE). */
    rewardPerLpPerSecondWei: string;
    /** `flashloan_contract` fee = floor(amount * numerator / denominator). */
    flashLoanFee: { numerator: number; denominator: number };
    /** LPwu wei A has staked in `simple_reward_pool` (0.5 LP). */
    agentStakedLpwuWei: string;
    /** Block timestamp of A's stake (snapshot.timestamp − 3,600). */
    stakeTimestamp: number;
    /** allowance(R, A) of USDT at the snapshot, wei. */
    richAllowanceToAgentWei: string;
    /** `erc721_token` tokenURI(id) = prefix + id + ".json". */
    erc721TokenUriPrefix: string;
    erc721AgentTokenIds: number[];
    pancakeSquadAgentTokenId: number;
    /** `erc1155_token` id → units A holds. */
    erc1155AgentBalances: Record<string, number>;
    /** getValue() through the proxy and on the implementation. */
    delegateCallValues: { proxy: number; implementation: number };
  };
  /**
   * Contract key → state variable → storage slot number (Solidity layout; mappings hash the key
   * with the slot). Pairs are Uniswap V2's own layout and are not listed.
   */
  storageSlots: Partial<Record<ContractKey, Record<string, number>>> & {
    simple_counter: { count: number };
    delegate_call_proxy: { value: number; implementation: number };
    delegate_call_implementation: { value: number };
  };
};

// The world's file paths (light, no catalogue): src/world/paths.ts.
export { worldJsonPath, worldStatePath } from "./paths.ts";

/**
 * Reads the world's address book written by `npx tsx fixtures/build-world.ts`.
 *
 * @param file world.json to read; default {@link worldJsonPath}.
 * @returns the typed world (addresses checksummed, amounts as wei strings).
 * @throws {ChainError} when the file is missing or lacks one of the catalogue's contract keys.
 * @example
 * import { loadWorld, worldStatePath } from "./world.ts";
 * const world = loadWorld();
 * const anvil = await startAnvil({ loadState: worldStatePath(), chainId: world.chainId });
 */
export function loadWorld(file: string = worldJsonPath()): World {
  let world: World;
  try {
    world = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ChainError(`Cannot read the world address book ${file}.`, {
      cause: error,
      details: "Build it with `npx tsx fixtures/build-world.ts`.",
    });
  }
  const missing = CONTRACT_KEYS.filter((key) => !world.contracts?.[key]);
  if (world.schemaVersion !== 1 || missing.length) {
    throw new ChainError(
      `The world address book ${file} is not schema version 1 with all ${CONTRACT_KEYS.length} keys.`,
      {
        details: `schemaVersion ${world.schemaVersion}; missing keys: ${missing.join(", ") || "none"}`,
      },
    );
  }
  return world;
}

/**
 * The `deployedContracts` map a model receives: the catalogue's keys and their checksummed addresses.
 * (docs/TASKS.md "Auxiliary contracts"; no key is ever missing, fixing the reference implementation's defect 9.)
 */
export function deployedContracts(world: World): Record<ContractKey, Address> {
  return Object.fromEntries(CONTRACT_KEYS.map((key) => [key, world.contracts[key]])) as Record<
    ContractKey,
    Address
  >;
}
