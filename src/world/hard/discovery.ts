import { parseAbi } from "viem";
import { pairAbi } from "../abis.ts";
import type { CatalogueEntry } from "../catalogueTypes.ts";

const rebaseAbi = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function totalPooled() view returns (uint256)",
  "function totalShares() view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function sharesOf(address account) view returns (uint256)",
  "function getSharesByPooled(uint256 amount) view returns (uint256)",
  "function getPooledByShares(uint256 shares) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function transfer(address to, uint256 amount) returns (bool)",
  "function transferFrom(address from, address to, uint256 amount) returns (bool)",
  "function transferShares(address to, uint256 shares) returns (uint256)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event TransferShares(address indexed from, address indexed to, uint256 sharesValue)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "event Rebased(uint256 totalPooled, uint256 totalShares)",
]);

const lockerAbi = parseAbi([
  "function token() view returns (address)",
  "function owner() view returns (address)",
  "function lockCount() view returns (uint32)",
  "function lock(address beneficiary, uint96 amount, address guardian, uint40 unlockAt)",
  "function claim()",
  "event Locked(address indexed beneficiary)",
  "event Claimed(address indexed beneficiary)",
]);

/**
 * The storage declarations of QuestLocker (fixtures/contracts/QuestLocker.sol), in source order, as
 * its catalogue description states them: a lock has no getter, so its terms are read from storage.
 */
export const LOCKER_SOURCE =
  'contract QuestLocker { struct Lock { uint96 amount; address guardian; uint40 unlockAt; uint40 lockedAt; bool claimed; } IERC20 public immutable token; address public owner; uint32 public lockCount; mapping(address => Lock) private _locks; /* keyed by beneficiary */ function lock(address beneficiary, uint96 amount, address guardian, uint40 unlockAt) external; /* owner only; overwrites */ function claim() external { Lock storage l = _locks[msg.sender]; require(l.amount > 0 && !l.claimed); require(block.timestamp >= l.unlockAt, "STILL_LOCKED"); l.claimed = true; token.transfer(msg.sender, l.amount); } }';

/** The rebasing token's shares and pooled total at deployment (wei); their ratio is not round. */
export const REBASE_GENESIS = {
  shares: 9_000_000_123_456_789_012_345_678_901n,
  pooled: 10_387_654_321_987_654_321_987_654_321n,
} as const;

/**
 * Facts that must be found on chain (tasks/hard/README.md "Tasks"): a shares-based rebasing token
 * (Lido stETH's accounting: balances derive from shares and round down) and a time-lock contract
 * whose locks have no getter (their terms live only in storage, laid out as its source says).
 * Every entry has `set: "hard"`; the discovery build step (src/world/hard/build/discovery.ts) funds them.
 */
export const HARD_DISCOVERY = {
  qsteth: {
    place: {
      kind: "deployed",
      artifact: "QuestRebaseToken",
      args: [
        "Quest Staked BNB",
        "qstBNB",
        REBASE_GENESIS.shares,
        REBASE_GENESIS.pooled,
        { account: "treasury" },
      ],
    },
    description:
      "Quest Staked BNB (qstBNB), a shares-based rebasing ERC-20 with 18 decimals, accounting like Lido's stETH: each holder has sharesOf(a); balanceOf(a) = sharesOf(a) × totalPooled() / totalShares(), rounded down (totalSupply() = totalPooled(), which is not a round multiple of totalShares()). transfer(to, amount) and transferFrom move getSharesByPooled(amount) = amount × totalShares / totalPooled shares, rounded down; transferShares(to, shares) moves exactly that many shares and returns their value (getPooledByShares, rounded down). Transfer logs the amount requested, TransferShares the shares moved; the pool's owner reports rewards by setting a new totalPooled, which emits Rebased(totalPooled, totalShares) and rescales every balance",
    abi: rebaseAbi,
    token: { symbol: "qstBNB", name: "Quest Staked BNB", decimals: 18 },
    set: "hard",
  },
  pair_qsteth_usdt: {
    place: { kind: "built", artifact: "@uniswap/v2-core/UniswapV2Pair" },
    description:
      "PancakeSwap V2 pair qstBNB/USDT (Uniswap V2 pair code; its LP token has 18 decimals): the rebasing qstBNB against USDT (both 18 decimals). A qstBNB transfer into the pair credits it with the value of the shares moved (rounded down), which can be 1–2 wei less than the amount sent",
    abi: pairAbi,
    token: { symbol: "qstBNB/USDT LP", name: "Pancake LPs", decimals: 18 },
    set: "hard",
  },
  usdc_locker: {
    place: { kind: "deployed", artifact: "QuestLocker", args: [{ contract: "usdc" }] },
    description: `QuestLocker, time-locks of USDC (6 decimals) per beneficiary. A lock has no getter and its events name only the beneficiary; the beneficiary calls claim() to receive the whole amount once block.timestamp ≥ unlockAt (it reverts before, and after a claim). Its source (storage declarations in order; Solidity 0.8.28 storage layout): ${LOCKER_SOURCE}`,
    abi: lockerAbi,
    set: "hard",
  },
} satisfies Record<string, CatalogueEntry>;

/** What the discovery build step plants: the agent's shares of qstBNB and the locker's USDC float. */
export const HARD_DISCOVERY_SEEDS = {
  /** qstBNB shares moved to the agent (wei); shares × pooled is not a multiple of totalShares. */
  agentShares: 41_234_567_890_123_456_789n,
  /** Whole USDC the treasury sends the locker, so every lock can be paid. */
  lockerFloat: "2000000",
  /** Whole qstBNB and USDT the treasury seeds pair_qsteth_usdt with (about 617 USDT per qstBNB). */
  pairQstethUsdt: ["2000", "1234567"],
} as const;
