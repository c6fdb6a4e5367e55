import { parseAbi } from "viem";
import type { CatalogueEntry } from "../catalogueTypes.ts";

/**
 * The routing venues of the hard world (tasks/hard/README.md "Tasks": search and optimisation): three Uniswap V3
 * WBTC/USDC pools at the V3 factory, created and seeded by src/world/hard/build/routing.ts. Each pool holds
 * full-range liquidity only (so liquidity() is the same at every price), at its own starting price
 * (whole USDC per whole WBTC) and depth (`wbtc` whole WBTC plus `wbtc × price` USDC). Prices and
 * depths differ on purpose: no single pool fills a large order best, and buying in the cheap pool
 * while selling in the dear one pays more than the fees.
 */
export const ROUTING_POOLS = [
  { key: "v3_pool_wbtc_usdc_500", fee: 500, tickSpacing: 10, price: "96200", wbtc: "8" },
  { key: "v3_pool_wbtc_usdc_3000", fee: 3000, tickSpacing: 60, price: "96900", wbtc: "5" },
  { key: "v3_pool_wbtc_usdc_10000", fee: 10000, tickSpacing: 200, price: "100800", wbtc: "3" },
] as const;

/** Treasury trades after seeding (whole tokens in, pool fee) so no price or quote is round. */
export const ROUTING_NUDGES = [
  { tokenIn: "usdc", amount: "1234.567891", fee: 500 },
  { tokenIn: "wbtc", amount: "0.01234567", fee: 3000 },
  { tokenIn: "usdc", amount: "777.777777", fee: 10000 },
] as const;

/** The feed's answer at the snapshot (USD per WBTC × 1e8); a task's pre-state may set another. */
export const WBTC_USD_FEED_ANSWER = 9_812_345_678_901n;

const poolAbi = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
  "function liquidity() view returns (uint128)",
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
]);

const pool = (fee: number, spacing: number): CatalogueEntry => ({
  place: { kind: "built", artifact: "@uniswap/v3-core/UniswapV3Pool" },
  description: `Uniswap V3 pool WBTC/USDC, fee ${fee} (${fee / 10_000} %), tick spacing ${spacing} (v3_factory.getPool(wbtc, usdc, ${fee})): WBTC has 8 decimals, USDC 6; token0() is the lower address; it holds full-range liquidity only, so liquidity() is the same at every price; slot0(), liquidity(), token0(), token1(), fee(); swap through v3_router, quote with v3_quoter`,
  abi: poolAbi,
  set: "hard",
});

/**
 * The hard world's routing venues: the three WBTC/USDC V3 pools above as catalogue keys,
 * so a hard task's prompt lists them. Every entry has `set: "hard"`; entries are appended after the
 * other hard modules', so no earlier address moves.
 */
export const HARD_ROUTING = {
  ...(Object.fromEntries(ROUTING_POOLS.map((p) => [p.key, pool(p.fee, p.tickSpacing)])) as Record<
    (typeof ROUTING_POOLS)[number]["key"],
    CatalogueEntry
  >),
  wbtc_usd_feed: {
    place: {
      kind: "deployed",
      artifact: "QuestPriceFeed",
      args: ["WBTC / USD", 8n, WBTC_USD_FEED_ANSWER],
    },
    description:
      "Chainlink-style WBTC/USD price feed (AggregatorV3Interface reads): decimals() = 8, so latestAnswer() / latestRoundData().answer is USD per whole WBTC × 1e8; description(); latestRoundData() → (roundId, answer, startedAt, updatedAt, answeredInRound)",
    abi: parseAbi([
      "function decimals() view returns (uint8)",
      "function description() view returns (string)",
      "function latestAnswer() view returns (int256)",
      "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
      "function setAnswer(int256 answer)",
    ]),
    set: "hard",
  },
} satisfies Record<string, CatalogueEntry>;
