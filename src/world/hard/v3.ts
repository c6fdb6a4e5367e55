import { parseAbi } from "viem";
import type { CatalogueEntry } from "../catalogueTypes.ts";

/**
 * The Uniswap V3 pools of the hard world, created and seeded by src/world/hard/build/v3.ts: token keys
 * (token0 first: the lower address), fee in hundredths of a bip, the starting price as whole
 * token1 per whole token0 (every token here has 18 decimals) given as a fraction, and the whole
 * tokens of full-range liquidity the treasury adds. The two WBNB/USDT pools start at different
 * prices on purpose: which one pays more depends on the direction of the trade, not on the fee.
 */
export const V3_POOLS = [
  {
    token0: "usdt",
    token1: "wbnb",
    fee: 500,
    tickSpacing: 10,
    price: [1n, 598n],
    amount0: "119600",
    amount1: "200",
  },
  {
    token0: "usdt",
    token1: "wbnb",
    fee: 3000,
    tickSpacing: 60,
    price: [1n, 604n],
    amount0: "90600",
    amount1: "150",
  },
  {
    token0: "usdt",
    token1: "busd",
    fee: 100,
    tickSpacing: 1,
    price: [9997n, 10000n],
    amount0: "100000",
    amount1: "100000",
  },
  {
    token0: "cake",
    token1: "wbnb",
    fee: 2500,
    tickSpacing: 50,
    price: [1n, 248n],
    amount0: "24800",
    amount1: "100",
  },
] as const;

/** Fee tiers the build enables beyond the factory's defaults (500, 3000, 10000): fee → tick spacing. */
export const V3_EXTRA_FEE_TIERS = [
  [100, 1],
  [2500, 50],
] as const;

const POOL_LIST =
  "WBNB/USDT fee 500 (0.05 %) and fee 3000 (0.3 %), at different prices; USDT/BUSD fee 100 (0.01 %); CAKE/WBNB fee 2500 (0.25 %) (these four tokens have 18 decimals); also WBNB/USDC fee 500 and WBTC/USDC fee 2500 (entries v3pool_wbnb_usdc, v3pool_wbtc_usdc)";

/**
 * The hard world (tasks/hard/README.md): a Uniswap V3 factory, pools with fee tiers, SwapRouter and quoter (npm artifacts). Every entry has `set: "hard"`, so only hard tasks' prompts list
 * it; entries are appended to the catalogue after the paper's, so the paper's addresses stay put.
 */
export const HARD_V3 = {
  v3_factory: {
    place: { kind: "deployed", artifact: "@uniswap/v3-core/UniswapV3Factory" },
    description: `Uniswap V3 factory (v3-core 1.0.1): getPool(tokenA, tokenB, uint24 fee) → pool (slot0(), liquidity(), token0(), token1(), fee()). Pools: ${POOL_LIST}`,
    abi: parseAbi([
      "function getPool(address tokenA, address tokenB, uint24 fee) view returns (address)",
      "function feeAmountTickSpacing(uint24 fee) view returns (int24)",
      "function owner() view returns (address)",
    ]),
    set: "hard",
  },
  v3_router: {
    passThrough: true,
    place: {
      kind: "deployed",
      artifact: "@uniswap/v3-periphery/SwapRouter",
      args: [{ contract: "v3_factory" }, { contract: "wbnb" }],
    },
    description:
      "Uniswap V3 SwapRouter (the original v3-periphery 1.4.4 one, WETH9 = WBNB): exactInputSingle((tokenIn, tokenOut, fee, recipient, deadline, amountIn, amountOutMinimum, sqrtPriceLimitX96)), exactOutputSingle((tokenIn, tokenOut, fee, recipient, deadline, amountOut, amountInMaximum, sqrtPriceLimitX96)), exactInput((path, recipient, deadline, amountIn, amountOutMinimum)), exactOutput((path, recipient, deadline, amountOut, amountInMaximum)) with path = abi.encodePacked(token, uint24 fee, token, …) (exactOutput's path runs from the output token back to the input token); multicall(bytes[]) (payable), refundETH(), unwrapWETH9(uint256 amountMinimum, address recipient); BNB sent as value pays a WBNB input",
    abi: parseAbi(["function WETH9() view returns (address)", "function factory() view returns (address)"]),
    set: "hard",
  },
  v3_quoter: {
    place: {
      kind: "deployed",
      artifact: "@uniswap/v3-periphery/QuoterV2",
      args: [{ contract: "v3_factory" }, { contract: "wbnb" }],
    },
    description:
      "Uniswap V3 QuoterV2 (lens): quoteExactInputSingle((tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96)) → (amountOut, sqrtPriceX96After, initializedTicksCrossed, gasEstimate), quoteExactOutputSingle((tokenIn, tokenOut, amount, fee, sqrtPriceLimitX96)) → (amountIn, …), quoteExactInput(bytes path, uint256 amountIn), quoteExactOutput(bytes path, uint256 amountOut); not view functions (they revert internally): call them with eth_call (ethers staticCall, viem simulateContract)",
    abi: parseAbi([
      "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
      "function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
    ]),
    set: "hard",
  },
  v3_positions: {
    passThrough: true,
    place: {
      kind: "deployed",
      artifact: "@uniswap/v3-periphery/NonfungiblePositionManager",
      args: [{ contract: "v3_factory" }, { contract: "wbnb" }, "0x0000000000000000000000000000000000000000"],
    },
    description:
      "Uniswap V3 NonfungiblePositionManager (ERC-721 enumerable, positions as NFTs): mint((token0, token1, fee, tickLower, tickUpper, amount0Desired, amount1Desired, amount0Min, amount1Min, recipient, deadline)) with token0 < token1 and ticks multiples of the pool's tick spacing, increaseLiquidity, decreaseLiquidity((tokenId, liquidity, amount0Min, amount1Min, deadline)), collect((tokenId, recipient, uint128 amount0Max, uint128 amount1Max)), positions(tokenId), burn, multicall(bytes[]), refundETH(), unwrapWETH9, sweepToken; tokenURI is not available. You already hold one position NFT (tokenOfOwnerByIndex(you, 0)) in the WBNB/USDT fee-500 pool, with fees owed",
    abi: parseAbi([
      "function balanceOf(address owner) view returns (uint256)",
      "function ownerOf(uint256 tokenId) view returns (address)",
      "function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)",
      "function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)",
    ]),
    set: "hard",
    holdings: [
      {
        key: "v3_positions",
        signature: "function balanceOf(address) view returns (uint256)",
        unit: "V3 position NFTs",
        decimals: 0,
      },
    ],
  },
} satisfies Record<string, CatalogueEntry>;

/**
 * The V3 pools of 6- and 8-decimal tokens (FRONTIER item 3: exact price math with no helper view),
 * created and seeded by `v3Decimals` in src/world/hard/build/v3.ts: `base` and `quote` name the human
 * price (`price` whole quote tokens per whole base token); which of them is token0 is whatever the
 * addresses say (the build sorts them), so a task never assumes the order and a model must read it.
 * `key` is the pool's catalogue key; `amountBase`/`amountQuote` whole tokens of full-range liquidity.
 */
export const V3_DECIMAL_POOLS = [
  {
    key: "v3pool_wbnb_usdc",
    base: "wbnb",
    quote: "usdc",
    fee: 500,
    tickSpacing: 10,
    price: "301.37",
    amountBase: "400",
    amountQuote: "120548",
    /** Observation slots (IUniswapV3PoolActions.increaseObservationCardinalityNext), for TWAPs. */
    observations: 64,
  },
  {
    key: "v3pool_wbtc_usdc",
    base: "wbtc",
    quote: "usdc",
    // Not 500/3000/10000: the routing family's WBTC/USDC pools (src/world/hard/build/routing.ts) hold those
    // tiers with depths its optimum assumes; this pool's own price and depth are its tasks' premise.
    fee: 2500,
    tickSpacing: 50,
    price: "96480.5",
    amountBase: "30",
    amountQuote: "2894415",
    observations: 1,
  },
] as const;

/**
 * The price spike the build plants in the pools with observation slots (src/world/hard/build/v3.ts
 * `plantSpike`), for TWAP tasks: `start` s after the pool's seeding the price jumps to
 * A·(sqrtHighPpm/10^6)², `hold` s later falls to A·(sqrtMidPpm/10^6)², `hold` s later returns to
 * exactly A. The paper world's stakes come after (their age to the snapshot stays 3,600 s), so at
 * the snapshot the spike ended 3,600 s and a few blocks ago, and a 7,200 s window covers all of it.
 */
export const V3_SPIKE = {
  start: 2000,
  hold: 1200,
  sqrtHighPpm: 1_039_070n,
  sqrtMidPpm: 1_019_500n,
  /** The TWAP window tasks use: it starts before the spike and ends after it. */
  windowSeconds: 7200,
} as const;

const V3_POOL_ABI = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
  "function liquidity() view returns (uint128)",
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
  "function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)",
  "function observations(uint256 index) view returns (uint32 blockTimestamp, int56 tickCumulative, uint160 secondsPerLiquidityCumulativeX128, bool initialized)",
]);

const v3Pool = (pair: string, fee: string, more: string): CatalogueEntry => ({
  place: { kind: "built", artifact: "@uniswap/v3-core/UniswapV3Pool" },
  description: `Uniswap V3 pool ${pair}, ${fee} (v3-core 1.0.1): token0() is the lower of the two token addresses, token1() the other; slot0() → (sqrtPriceX96 = √(token1 units per token0 unit) · 2^96, tick, …); liquidity(), tickSpacing(), observe(uint32[] secondsAgos) → (int56[] tickCumulatives, …); prices are in each token's smallest units (mind the decimals)${more}`,
  abi: V3_POOL_ABI,
  set: "hard",
});

/** The pools of {@link V3_DECIMAL_POOLS} as catalogue entries (addresses filled in by the build). */
export const HARD_V3_DECIMALS = {
  v3pool_wbnb_usdc: v3Pool(
    "WBNB/USDC",
    "fee 500 (0.05 %, tick spacing 10); WBNB has 18 decimals, USDC 6",
    "; it keeps 64 observation slots, so observe() reaches back over its recent history",
  ),
  v3pool_wbtc_usdc: v3Pool(
    "WBTC/USDC",
    "fee 2500 (0.25 %, tick spacing 50); WBTC has 8 decimals, USDC 6",
    "",
  ),
} satisfies Record<string, CatalogueEntry>;
