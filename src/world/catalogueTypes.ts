/**
 * The types of the world catalogue (src/world/catalogue.ts), apart so the hard world's modules
 * (src/world/hard/*.ts) can type their entries without importing the catalogue that spreads them.
 */
import type { Abi, Address, Hex } from "viem";

/** The harness's accounts (keys in world.json, never shown to a model). */
export type AccountName = "agent" | "rich" | "treasury";

/**
 * A constructor or initializer argument, resolved when the world is built or provisioned:
 * a literal, the address of another catalogue key, one of the harness's accounts, or an amount of
 * whole tokens (18 decimals) as a decimal string, or a list of these.
 */
export type Arg =
  | string
  | bigint
  | boolean
  | { contract: string }
  | { account: AccountName }
  | { ether: string }
  | readonly Arg[];

/**
 * Where an entry's code comes from:
 * - `canonical`: a BNB Smart Chain mainnet contract at its mainnet `address`. The local build places
 *   `artifact`'s runtime code there (`anvil_setCode`: no constructor runs, so state comes from
 *   `storage` writes and a one-shot `initialize(...)` call, or, for `immutables`, a constructor run at
 *   a scratch address whose runtime code is then copied). On a fork the chain's own contract is used.
 * - `deployed`: own Solidity (`fixtures/contracts/*.sol`, compiled to `fixtures/artifacts/<artifact>.json`),
 *   deployed by the treasury with the constructor `args`, locally and on a fork.
 * - `pair`: a Uniswap V2 pair from the factory (`getPair(tokenA, tokenB)`); the build seeds it with
 *   `amountA`/`amountB` whole tokens (docs/TASKS.md "Tokens and DEX", token0 first), a fork uses its own reserves and
 *   seeds only a pair it lacks.
 * - `account`: one of the harness's accounts (an EOA).
 * - `built`: created by a hard-world build step (src/world/hard/build/), which puts its address in the
 *   build's `contracts` (e.g. a V2 pair of hard-world tokens, seeded in each token's own units);
 *   `artifact` names its code (as for `canonical`), so its ABI can be checked against it.
 */
export type Placement =
  | {
      kind: "canonical";
      address: Address;
      /** Artifact name in fixtures/artifacts, or `@uniswap/<package>/<Contract>` from npm. */
      artifact: string;
      install: "code" | { initialize: readonly Arg[] } | { immutables: readonly Arg[] };
      /** Storage words written after the code is placed: slot (hex) → value (an address or number). */
      storage?: Readonly<Record<Hex, Arg>>;
    }
  | { kind: "deployed"; artifact: string; args?: readonly Arg[] }
  | { kind: "pair"; tokenA: string; tokenB: string; amountA: string; amountB: string }
  | { kind: "account"; account: AccountName }
  | { kind: "built"; artifact: string };

/** Token metadata as the contract reports it. */
export type TokenMeta = { symbol: string; name: string; decimals: number };

/** One `deployedContracts` key. */
export type CatalogueEntry = {
  place: Placement;
  /** The line of the environment prompt that says what this key is (docs/TASKS.md "Auxiliary contracts"). */
  description: string;
  /** viem ABI of what the checks and tests call (human-readable signatures parsed in abis.ts). */
  abi?: Abi;
  /** This contract delegates calls it does not know to that key's code (its ABI covers both). */
  delegatesTo?: string;
  /** Set for ERC-20 tokens listed in world.json `tokens`. */
  token?: TokenMeta;
  /** State variable → storage slot (Solidity layout), listed in world.json `storageSlots`. */
  slots?: Readonly<Record<string, number>>;
  /**
   * "hard": part of the hard split's world (tasks/hard/README.md). It is deployed like every entry, but only a
   * hard task's environment prompt lists it, so the paper's 107 prompts stay as they were.
   */
  set?: "hard";
  /**
   * Hard-world positions of the agent that are not ERC-20 balances (a lending market's supplied or
   * borrowed amount, a count of position NFTs): each is one more holding the G1 check
   * (`holdingsUnchanged`) and the composite feedback read, as `signature` called with the agent's
   * address on this entry's contract. A hard entry with `token` is a holding already (its balanceOf).
   */
  holdings?: readonly HoldingRead[];
  /**
   * A venue that only passes assets through (a router, a batching contract, Permit2): whatever an
   * attempt leaves in it is the user's money lost, so the effect ledger requires it to end as the
   * gold answer leaves it (docs/SCORING.md "Effect ledger", rule 4).
   */
  passThrough?: true;
  /**
   * A contract that makes arbitrary calls for anyone (Multicall3's `aggregate`): an allowance granted
   * to it can be spent by anyone, so the effect ledger judges grants to it as grants to a stranger
   * (docs/SCORING.md "Effect ledger", rule 5).
   */
  forwardsCalls?: true;
};

/** One holding read: `key` (unique among holdings), a one-argument view `signature` in human-readable ABI, its unit and decimals. */
export type HoldingRead = { key: string; signature: string; unit: string; decimals: number };
