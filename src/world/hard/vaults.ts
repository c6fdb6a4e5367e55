import { parseAbi } from "viem";
import type { CatalogueEntry } from "../catalogueTypes.ts";

/** `usdt_vault`: the EIP-4626 functions and events the checks read (OpenZeppelin's ERC4626). */
const VAULT_SIGNATURES = [
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function transfer(address to, uint256 amount) returns (bool)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function transferFrom(address from, address to, uint256 amount) returns (bool)",
  "function asset() view returns (address)",
  "function totalAssets() view returns (uint256)",
  "function convertToShares(uint256 assets) view returns (uint256)",
  "function convertToAssets(uint256 shares) view returns (uint256)",
  "function maxDeposit(address receiver) view returns (uint256)",
  "function maxMint(address receiver) view returns (uint256)",
  "function maxWithdraw(address owner) view returns (uint256)",
  "function maxRedeem(address owner) view returns (uint256)",
  "function previewDeposit(uint256 assets) view returns (uint256)",
  "function previewMint(uint256 shares) view returns (uint256)",
  "function previewWithdraw(uint256 assets) view returns (uint256)",
  "function previewRedeem(uint256 shares) view returns (uint256)",
  "function deposit(uint256 assets, address receiver) returns (uint256)",
  "function mint(uint256 shares, address receiver) returns (uint256)",
  "function withdraw(uint256 assets, address receiver, address owner) returns (uint256)",
  "function redeem(uint256 shares, address receiver, address owner) returns (uint256)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)",
  "event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)",
] as const;
const vaultAbi = parseAbi(VAULT_SIGNATURES);

/** `price_oracle` (PriceOracle.sol). */
const oracleAbi = parseAbi([
  "function owner() view returns (address)",
  "function setPrice(address asset, uint256 price)",
  "function getPrice(address asset) view returns (uint256)",
  "event PriceSet(address indexed asset, uint256 price)",
]);

/** `lend_wbnb`, `lend_cake` (LendingMarket.sol). */
const marketAbi = parseAbi([
  "function collateralToken() view returns (address)",
  "function debtToken() view returns (address)",
  "function oracle() view returns (address)",
  "function collateralFactorBps() view returns (uint256)",
  "function collateralOf(address account) view returns (uint256)",
  "function debtOf(address account) view returns (uint256)",
  "function totalCollateral() view returns (uint256)",
  "function totalDebt() view returns (uint256)",
  "function supply(uint256 amount, address onBehalfOf)",
  "function withdraw(uint256 amount, address to) returns (uint256)",
  "function borrow(uint256 amount)",
  "function repay(uint256 amount, address onBehalfOf) returns (uint256)",
  "function collateralValue(address account) view returns (uint256)",
  "function debtValue(address account) view returns (uint256)",
  "function borrowLimit(address account) view returns (uint256)",
  "function healthFactor(address account) view returns (uint256)",
  "function accountData(address account) view returns (uint256, uint256, uint256, uint256)",
  "function availableLiquidity() view returns (uint256)",
  "event Supply(address indexed caller, address indexed onBehalfOf, uint256 amount)",
  "event Withdraw(address indexed account, address indexed to, uint256 amount)",
  "event Borrow(address indexed account, uint256 amount)",
  "event Repay(address indexed payer, address indexed onBehalfOf, uint256 amount)",
]);

/** The market's rules, said once for both markets' prompt lines. */
const MARKET_RULES =
  "supply(uint256 amount, address onBehalfOf) pulls collateral with transferFrom; borrow(uint256 amount) sends USDT to the caller; repay(uint256 amount, address onBehalfOf) pulls USDT with transferFrom (type(uint256).max repays the whole debt); withdraw(uint256 amount, address to) returns collateral (type(uint256).max = all); views collateralOf(address), debtOf(address), collateralFactorBps(), healthFactor(address) (1e18 = 1.0, type(uint256).max without debt), accountData(address) → (collateralValue, debtValue, borrowLimit, healthFactor); all values USD ×1e18 from price_oracle, each rounded down: collateralValue = collateralOf·price(collateral)/1e18, debtValue = debtOf·price(USDT)/1e18, borrowLimit = collateralValue·collateralFactorBps/10000, healthFactor = borrowLimit·1e18/debtValue; borrow and withdraw revert unless healthFactor stays ≥ 1e18; no interest accrues, no liquidations";

const market = (collateral: "wbnb" | "cake", symbol: string): CatalogueEntry => ({
  place: {
    kind: "deployed",
    artifact: "LendingMarket",
    args: [
      { contract: collateral },
      { contract: "usdt" },
      { contract: "price_oracle" },
      BigInt(VAULTS_FACTS.collateralFactorBps[collateral]),
    ],
  },
  description: `Lending market, ${symbol} collateral (18 decimals) against USDT debt (18 decimals), collateral factor ${VAULTS_FACTS.collateralFactorBps[collateral] / 100} %: ${MARKET_RULES}`,
  abi: marketAbi,
  set: "hard",
  holdings: [
    {
      key: `lend_${collateral}_collateral`,
      signature: "function collateralOf(address) view returns (uint256)",
      unit: `${symbol} supplied to lend_${collateral}`,
      decimals: 18,
    },
    {
      key: `lend_${collateral}_debt`,
      signature: "function debtOf(address) view returns (uint256)",
      unit: `USDT owed to lend_${collateral}`,
      decimals: 18,
    },
  ],
});

/**
 * Facts of the vaults-and-lending world, fixed here and used by its build step
 * (src/world/hard/build/vaults.ts): oracle prices (USD per whole token, decimal strings), collateral
 * factors (basis points) and the amounts that make the vault's share price and the agent's
 * positions non-round.
 */
export const VAULTS_FACTS = {
  prices: { wbnb: "613.27418", cake: "2.4193", usdt: "0.99985" },
  collateralFactorBps: { wbnb: 7800, cake: 6250 },
  /** USDT each market can lend at the snapshot (planted by the treasury). */
  marketLiquidity: "250000",
  /** The treasury's first vault deposit, then donations before and after the agent's deposit. */
  vaultSeed: "500000",
  vaultDonations: ["37519.274813", "1234.5678"],
  /** WBNB the treasury supplies on behalf of the agent to `lend_wbnb`; USDT the agent then borrows and deposits in the vault. */
  agentWbnbCollateral: "5.5",
  agentUsdtDebt: "1234.567890123456789",
} as const;

/**
 * The hard world (tasks/hard/README.md): an ERC-4626 vault and a small lending market. Every entry has `set: "hard"`, so only hard tasks' prompts list
 * it; entries are appended to the catalogue after the paper's, so the paper's addresses stay put.
 */
export const HARD_VAULTS = {
  usdt_vault: {
    place: { kind: "deployed", artifact: "QuestVault", args: [{ contract: "usdt" }] },
    description:
      "Quest USDT Vault (qvUSDT), an ERC-4626 vault on USDT (OpenZeppelin ERC4626; shares have 18 decimals; one share is worth more than 1 USDT): deposit(assets, receiver) and redeem(shares, receiver, owner) round the result down, mint(shares, receiver) and withdraw(assets, receiver, owner) round the amount taken up; previewDeposit/previewMint/previewWithdraw/previewRedeem, convertToShares/convertToAssets, maxWithdraw/maxRedeem, totalAssets(); deposit and mint pull USDT with transferFrom",
    abi: vaultAbi,
    token: { symbol: "qvUSDT", name: "Quest USDT Vault", decimals: 18 },
    set: "hard",
  },
  price_oracle: {
    place: { kind: "deployed", artifact: "PriceOracle" },
    description:
      "Price oracle of the lending markets: getPrice(address asset) → USD per whole token ×1e18 (WBNB, CAKE and USDT have prices; USDT's is not exactly 1)",
    abi: oracleAbi,
    set: "hard",
  },
  lend_wbnb: market("wbnb", "WBNB"),
  lend_cake: market("cake", "CAKE"),
} satisfies Record<string, CatalogueEntry>;

/** `usdc_stream_vault` (QuestStreamVault.sol): EIP-4626 plus the stream's views. */
const streamVaultAbi = parseAbi([
  ...VAULT_SIGNATURES,
  "function owner() view returns (address)",
  "function fundStream(uint256 amount)",
  "function rewardRate() view returns (uint256)",
  "function streamStart() view returns (uint256)",
  "function streamTotal() view returns (uint256)",
  "function vested() view returns (uint256)",
]);

/** `mm_oracle` (PriceOracle.sol, a second instance): USD per whole token with 8 decimals. */
const feedAbi = oracleAbi;

/** `mm_wbtc_usdc` (QuestMoneyMarket.sol). */
const moneyMarketAbi = parseAbi([
  "function collateralToken() view returns (address)",
  "function debtToken() view returns (address)",
  "function oracle() view returns (address)",
  "function ltvBps() view returns (uint256)",
  "function liquidationThresholdBps() view returns (uint256)",
  "function closeFactorBps() view returns (uint256)",
  "function liquidationBonusBps() view returns (uint256)",
  "function ratePerSecond() view returns (uint256)",
  "function borrowIndex() view returns (uint256)",
  "function lastAccrual() view returns (uint256)",
  "function collateralOf(address account) view returns (uint256)",
  "function scaledDebtOf(address account) view returns (uint256)",
  "function debtOf(address account) view returns (uint256)",
  "function supply(uint256 amount, address onBehalfOf)",
  "function withdraw(uint256 amount, address to) returns (uint256)",
  "function borrow(uint256 amount)",
  "function repay(uint256 amount, address onBehalfOf) returns (uint256)",
  "function liquidate(address borrower, uint256 repayAmount) returns (uint256)",
  "function seizeFor(uint256 repayAmount) view returns (uint256)",
  "function collateralValue(address account) view returns (uint256)",
  "function debtValue(address account) view returns (uint256)",
  "function borrowLimit(address account) view returns (uint256)",
  "function healthFactor(address account) view returns (uint256)",
  "function availableLiquidity() view returns (uint256)",
  "function multicall(bytes[] data) returns (bytes[] results)",
  "event Supply(address indexed caller, address indexed onBehalfOf, uint256 amount)",
  "event Withdraw(address indexed account, address indexed to, uint256 amount)",
  "event Borrow(address indexed account, uint256 amount)",
  "event Repay(address indexed payer, address indexed onBehalfOf, uint256 amount)",
  "event Liquidate(address indexed liquidator, address indexed borrower, uint256 repaid, uint256 seized)",
]);

/**
 * Facts of the money market (QuestMoneyMarket.sol): 8-decimal oracle prices (USD per whole token,
 * decimal strings), risk parameters in basis points, the per-second interest rate (1e18 = 100 %,
 * 12 % a year simple: 0.12 / 31,536,000 s) and the USDC the treasury lends out through it.
 */
export const MONEY_MARKET_FACTS = {
  prices: { wbtc: "96472.35812345", usdc: "0.99987" },
  ltvBps: 7000,
  liquidationThresholdBps: 8000,
  closeFactorBps: 5000,
  liquidationBonusBps: 800,
  ratePerSecond: 3_805_175_038n,
  liquidity: "2000000",
  /** usdc_stream_vault: the treasury's deposit, the reward reserve and its rate (USDC units per second). */
  streamVaultSeed: "1000000",
  streamReserve: "200000",
  streamRate: 10_000n,
} as const;

const MM = MONEY_MARKET_FACTS;

/**
 * The money market of the hard world (tasks/hard/README.md "Tasks"): debt that bears interest every
 * second, a liquidation threshold apart from the borrow limit, liquidations with a close factor and
 * a bonus, and an 8-decimal oracle on tokens with 8 and 6 decimals. Spread into the catalogue after
 * the other hard modules, so no earlier address moves.
 */
export const HARD_MONEY_MARKET = {
  mm_oracle: {
    place: { kind: "deployed", artifact: "PriceOracle" },
    description:
      "Price oracle of mm_wbtc_usdc: getPrice(address asset) → USD per whole token with 8 decimals (Chainlink style: 1 USD = 100000000); WBTC and USDC have prices, USDC's is not exactly 1",
    abi: feedAbi,
    set: "hard",
  },
  mm_wbtc_usdc: {
    place: {
      kind: "deployed",
      artifact: "QuestMoneyMarket",
      args: [
        { contract: "wbtc" },
        { contract: "usdc" },
        { contract: "mm_oracle" },
        BigInt(MM.ltvBps),
        BigInt(MM.liquidationThresholdBps),
        BigInt(MM.closeFactorBps),
        BigInt(MM.liquidationBonusBps),
        MM.ratePerSecond,
      ],
    },
    description: `Money market: WBTC collateral (8 decimals) against USDC debt (6 decimals), prices from mm_oracle (USD per whole token, 8 decimals). Interest: debt grows every second (simple interest compounded at each interaction through borrowIndex(), 1e18 at deployment: index += index · ratePerSecond · elapsed seconds / 1e18, rounded down; ratePerSecond() = ${MM.ratePerSecond} with 1e18 = 100 %, about 12 % a year); debtOf(account) = ceil(scaledDebtOf(account) · borrowIndex() / 1e18) at the current block, so the debt of the block that mines a transaction is higher than the one read a block earlier. supply(uint256 amount, address onBehalfOf) pulls WBTC with transferFrom; borrow(uint256 amount) sends USDC to the caller; repay(uint256 amount, address onBehalfOf) pulls USDC with transferFrom, and any amount ≥ the debt at that block (e.g. type(uint256).max) repays exactly the whole debt and pulls only that; withdraw(uint256 amount, address to) returns WBTC (type(uint256).max = all); multicall(bytes[] data) runs several of these calls in one transaction with the caller as msg.sender (all or nothing). Values are USD with 8 decimals, each rounded down: collateralValue = collateralOf · price(WBTC) / 1e8, debtValue = debtOf · price(USDC) / 1e6, borrowLimit = collateralValue · ltvBps / 10000 (ltvBps ${MM.ltvBps}), healthFactor = collateralValue · liquidationThresholdBps / 10000 · 1e18 / debtValue (liquidationThresholdBps ${MM.liquidationThresholdBps}; 1e18 = 1.0, type(uint256).max without debt); borrow and withdraw revert unless debtValue ≤ borrowLimit afterwards. liquidate(address borrower, uint256 repayAmount): only while the borrower's healthFactor < 1e18; pulls repayAmount USDC from the caller (transferFrom), which must be ≤ debtOf(borrower) · closeFactorBps / 10000 at that block (closeFactorBps ${MM.closeFactorBps}, rounded down), and pays the caller seizeFor(repayAmount) = repayAmount · price(USDC) · 1e8 · (10000 + liquidationBonusBps) / (price(WBTC) · 1e6 · 10000) WBTC (liquidationBonusBps ${MM.liquidationBonusBps}, rounded down), reverting if that exceeds the borrower's collateral`,
    abi: moneyMarketAbi,
    set: "hard",
    holdings: [
      {
        key: "mm_collateral",
        signature: "function collateralOf(address) view returns (uint256)",
        unit: "WBTC supplied to mm_wbtc_usdc",
        decimals: 8,
      },
      {
        key: "mm_debt",
        signature: "function debtOf(address) view returns (uint256)",
        unit: "USDC owed to mm_wbtc_usdc",
        decimals: 6,
      },
    ],
  },
  usdc_stream_vault: {
    place: {
      kind: "deployed",
      artifact: "QuestStreamVault",
      args: [{ contract: "usdc" }, MM.streamRate],
    },
    description: `Quest Streaming USDC Vault (qsUSDC), an ERC-4626 vault on USDC (OpenZeppelin ERC4626 with a decimals offset of 12: USDC has 6 decimals, shares have 18) whose share price rises every second: a reward reserve vests linearly into totalAssets() at rewardRate() = ${MM.streamRate} USDC units (${Number(MM.streamRate) / 1e6} USDC) per second, so every preview and conversion read in one block is already stale in the next (a deposit then mints fewer shares, a withdrawal burns fewer, a redemption pays more). deposit(assets, receiver) and redeem(shares, receiver, owner) round the result down, mint(shares, receiver) and withdraw(assets, receiver, owner) round the amount taken up, all at the price of the block that mines them; previewDeposit/previewMint/previewWithdraw/previewRedeem, convertToShares/convertToAssets, maxWithdraw/maxRedeem, totalAssets(), vested(); deposit and mint pull USDC with transferFrom`,
    abi: streamVaultAbi,
    token: { symbol: "qsUSDC", name: "Quest Streaming USDC Vault", decimals: 18 },
    set: "hard",
  },
} satisfies Record<string, CatalogueEntry>;
