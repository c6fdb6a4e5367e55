import { parseAbi } from "viem";
import { pairAbi } from "../abis.ts";
import type { CatalogueEntry } from "../catalogueTypes.ts";

/** ERC-20 reads and writes as a standard token declares them (transfer/approve return bool). */
const ERC20 = [
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
] as const;
const erc20Abi = parseAbi([
  ...ERC20,
  "function transfer(address to, uint256 value) returns (bool)",
  "function approve(address spender, uint256 value) returns (bool)",
  "function transferFrom(address from, address to, uint256 value) returns (bool)",
]);
/** Tether-style: the three writes return nothing. */
const noReturnAbi = parseAbi([
  ...ERC20,
  "function transfer(address to, uint256 value)",
  "function approve(address spender, uint256 value)",
  "function transferFrom(address from, address to, uint256 value)",
]);
const feeTokenAbi = parseAbi([
  ...ERC20,
  "function transfer(address to, uint256 value) returns (bool)",
  "function approve(address spender, uint256 value) returns (bool)",
  "function transferFrom(address from, address to, uint256 value) returns (bool)",
  "function feeBps() view returns (uint256)",
  "function feeCollector() view returns (address)",
]);

/** The fee-on-transfer token's fee in basis points (FeeOnTransferToken's `feeBps`). */
export const FOT_FEE_BPS = 300n;

/** `amount` whole tokens in the smallest unit of a token with `decimals` (a constructor argument). */
const units = (amount: bigint, decimals: number) => amount * 10n ** BigInt(decimals);

/**
 * A V2 pair of hard-world tokens at PancakeSwap's factory, created and seeded by the tokens build
 * step (src/world/hard/build/tokens.ts) in each token's own units; it is an ERC-20 (its LP token, 18
 * decimals), so the agent's LP balance is a holding like any hard token.
 */
const hardPair = (symbol: string, description: string): CatalogueEntry => ({
  place: { kind: "built", artifact: "@uniswap/v2-core/UniswapV2Pair" },
  description: `PancakeSwap V2 pair ${symbol} (Uniswap V2 pair code; its LP token has 18 decimals)${description}`,
  abi: pairAbi,
  token: { symbol: `${symbol} LP`, name: "Pancake LPs", decimals: 18 },
  set: "hard",
});

/**
 * The hard world's token quirks (tasks/hard/README.md): tokens with 6 and 8 decimals, a USDT-on-Ethereum-like
 * token whose writes return nothing and whose approve needs a reset to 0, a fee-on-transfer token,
 * and V2 pairs of them. Every entry has `set: "hard"`, so only hard tasks' prompts list it; entries
 * are appended to the catalogue after the paper's, so the paper's addresses stay put. The treasury
 * holds each supply; the build step seeds the pairs and plants the agent's balances.
 */
export const HARD_TOKENS = {
  usdc: {
    place: {
      kind: "deployed",
      artifact: "DecimalsToken",
      args: ["USD Coin", "USDC", 6n, units(100_000_000n, 6), { account: "treasury" }],
    },
    description: "USD Coin (USDC), ERC-20 with 6 decimals (1 USDC = 1,000,000 units)",
    abi: erc20Abi,
    token: { symbol: "USDC", name: "USD Coin", decimals: 6 },
    set: "hard",
  },
  wbtc: {
    place: {
      kind: "deployed",
      artifact: "DecimalsToken",
      args: ["Wrapped BTC", "WBTC", 8n, units(10_000n, 8), { account: "treasury" }],
    },
    description: "Wrapped BTC (WBTC), ERC-20 with 8 decimals (1 WBTC = 100,000,000 units)",
    abi: erc20Abi,
    token: { symbol: "WBTC", name: "Wrapped BTC", decimals: 8 },
    set: "hard",
  },
  eusdt: {
    place: {
      kind: "deployed",
      artifact: "NoReturnToken",
      args: ["Tether USD (Ethereum-style)", "eUSDT", units(100_000_000n, 6), { account: "treasury" }],
    },
    description:
      "Tether USD, Ethereum-mainnet style (eUSDT): 6 decimals; transfer, transferFrom and approve return nothing (no bool), and approve reverts unless the current allowance or the new value is 0 (to change a nonzero allowance, set it to 0 first)",
    abi: noReturnAbi,
    token: { symbol: "eUSDT", name: "Tether USD (Ethereum-style)", decimals: 6 },
    set: "hard",
  },
  fot: {
    place: {
      kind: "deployed",
      artifact: "FeeOnTransferToken",
      args: ["Fee Token", "FOT", FOT_FEE_BPS, { ether: "100000000" }, { account: "treasury" }],
    },
    description: `Fee Token (FOT), ERC-20 with 18 decimals and a fee on transfer: every transfer and transferFrom keeps feeBps() = ${FOT_FEE_BPS} (${Number(FOT_FEE_BPS) / 100} %) of the value (fee = value × ${FOT_FEE_BPS} / 10000, rounded down) and delivers the rest; only transfers to or from feeCollector() are exempt`,
    abi: feeTokenAbi,
    token: { symbol: "FOT", name: "Fee Token", decimals: 18 },
    set: "hard",
  },
  pair_usdc_usdt: hardPair("USDC/USDT", ": USDC (6 decimals) against the 18-decimal USDT"),
  pair_wbtc_usdc: hardPair("WBTC/USDC", ": WBTC (8 decimals) against USDC (6 decimals)"),
  pair_wbtc_wbnb: hardPair("WBTC/WBNB", ": WBTC (8 decimals) against WBNB"),
  pair_fot_wbnb: hardPair("FOT/WBNB", ": the fee-on-transfer FOT against WBNB"),
  pair_eusdt_usdc: hardPair("eUSDT/USDC", ": eUSDT against USDC (both 6 decimals)"),
} satisfies Record<string, CatalogueEntry>;

/**
 * How the tokens build step seeds each pair (whole tokens of each side, in catalogue order) and
 * what the agent holds at the snapshot (whole tokens, each in its own decimals).
 */
export const HARD_TOKEN_SEEDS = {
  pairs: {
    pair_usdc_usdt: ["usdc", "400000", "usdt", "400000"],
    pair_wbtc_usdc: ["wbtc", "25", "usdc", "2412345"],
    pair_wbtc_wbnb: ["wbtc", "4", "wbnb", "650"],
    pair_fot_wbnb: ["fot", "200000", "wbnb", "150"],
    pair_eusdt_usdc: ["eusdt", "300000", "usdc", "300150"],
  },
  agent: { usdc: "25000", wbtc: "1.5", eusdt: "8000", fot: "50000" },
  /** The agent's standing eUSDT allowance to the router (whole eUSDT): changing it needs a reset. */
  eusdtRouterAllowance: "500",
} as const;
