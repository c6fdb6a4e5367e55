import type { Hex } from "viem";

/**
 * The effect ledger of one attempt (docs/SCORING.md "Effect ledger"): what every address gained or
 * lost, in every asset, between two blocks of one chain, and every grant made meanwhile. It is
 * computed the same way for every task from what the chain records, never from the task's checks:
 * receipts' logs and call traces (`debug_traceBlockByNumber` with `callTracer`) name the parties and
 * assets, and balances read at both ends give the amounts (so rebasing and fee-on-transfer tokens
 * come out right).
 *
 * Asset keys: `native` (wei; the agent's is net of the gas fees it paid), `erc20:<token>` (the
 * token's smallest unit), `erc721:<token>:<id>` (±1), `erc1155:<token>:<id>`, `position:<contract>:<key>`
 * (a catalogue contract's per-account position, e.g. staked LP or lending debt, in its own unit),
 * `v3liquidity:<manager>:<id>` (a Uniswap V3 position's liquidity, credited to its owner).
 * Addresses are lower-case.
 */
export type Ledger = {
  /** The block the ledger starts after (its state is "before") and the block it ends at. */
  fromBlock: bigint;
  toBlock: bigint;
  /** party → asset → net change over the window. Zero entries are dropped. */
  net: Map<string, Map<string, bigint>>;
  /** Every credit or debit the logs and call frames show, in order: the "at any point" record. */
  movements: Movement[];
  /** Every grant set in the window (in order), with what stands at both ends. */
  grants: GrantRecord[];
  /** Contracts created in the window, with their creator. */
  created: Map<string, string>;
  /** Contracts created (at any depth) by transactions the agent sent: its own tools. */
  agentCreated: Set<string>;
  /** The transactions mined in the window. */
  txs: LedgerTx[];
  /** Every contract a call frame that did not revert reached (lower-case). */
  called: Set<string>;
};

/** One transaction of the window. */
export type LedgerTx = {
  hash: Hex;
  from: string;
  to: string | null;
  status: boolean;
  gasUsed: bigint;
  /** gasUsed × effective gas price, wei. */
  fee: bigint;
  /** The part of `fee` above the block's base fee (the priority tip), wei: paid to the block producer. */
  tip: bigint;
  /** The effective gas price, wei per gas. */
  gasPrice: bigint;
};

/** One credit (amount > 0) or debit (< 0) of `asset` to `party`, as a log or a call frame shows it. */
export type Movement = { tx: Hex; party: string; asset: string; amount: bigint };

/**
 * One (asset, owner, spender) grant the window touched. `kind`: an ERC-20 allowance (`erc20`), a
 * per-token ERC-721 approval (`erc721`, value 1 or 0), an operator approval for a whole collection
 * (`operator`, 1 or 0), a Permit2 allowance (`permit2`). `max` is the largest value any log of the
 * window set (an approval made and revoked again shows here); `start` and `end` are read on chain.
 */
export type GrantRecord = {
  kind: "erc20" | "erc721" | "operator" | "permit2";
  /** The token (collection) contract, and for `erc721` the id: `<token>` or `<token>:<id>`. */
  asset: string;
  owner: string;
  spender: string;
  max: bigint;
  start: bigint;
  end: bigint;
};
