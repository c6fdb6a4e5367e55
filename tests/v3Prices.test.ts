import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  MAX_TICK,
  MIN_TICK,
  type PricedPool,
  quoteUnitsPerBase,
  rangeOfHumanPrices,
  sqrtPriceOfHumanPrice,
  sqrtRatioAtTick,
  tickAtSqrtRatio,
} from "../src/validators/v3/v3Math.ts";

// The ported TickMath must agree with the Solidity library it ports (v3-core 1.0.1 from node_modules).
const tickMathSol = readFileSync("node_modules/@uniswap/v3-core/contracts/libraries/TickMath.sol", "utf8");
const solConstant = (name: string) => BigInt(new RegExp(`${name} = (\\d+);`).exec(tickMathSol)![1]!);

/** WBTC (8 decimals) priced in USDC (6 decimals) on a pool whose token0 is USDC: inverted and scaled. */
const usdcFirst: PricedPool = {
  pool: "0x0000000000000000000000000000000000000001",
  baseIsToken0: false,
  baseDecimals: 8,
  quoteDecimals: 6,
  tickSpacing: 60,
};

describe("V3 price math (v3Math)", () => {
  test("sqrtRatioAtTick gives TickMath's MIN_SQRT_RATIO and MAX_SQRT_RATIO at the tick bounds", () => {
    expect(sqrtRatioAtTick(MIN_TICK)).toBe(solConstant("MIN_SQRT_RATIO"));
    expect(sqrtRatioAtTick(MAX_TICK)).toBe(solConstant("MAX_SQRT_RATIO"));
  });

  test("tickAtSqrtRatio is the greatest tick at or below a sqrt price, for negative and positive ticks", () => {
    for (const tick of [-887271, -219098, -68723, -1, 0, 1, 60, 46054, 887271]) {
      const at = sqrtRatioAtTick(tick);
      expect(tickAtSqrtRatio(at)).toBe(tick);
      expect(tickAtSqrtRatio(at - 1n)).toBe(tick - 1);
      expect(tickAtSqrtRatio(at + 1n)).toBe(tick);
    }
  });

  test("a human price on an inverted pool maps to the floor of log1.0001 of the raw token1/token0 price", () => {
    // 96,000 USDC per WBTC = 10^8 / (96,000 · 10^6) WBTC units per USDC unit.
    const tick = tickAtSqrtRatio(sqrtPriceOfHumanPrice("96000", usdcFirst));
    expect(tick).toBe(Math.floor(Math.log(100 / 96_000) / Math.log(1.0001)));
    // Not inverting, or ignoring the decimals, lands tens of thousands of ticks away.
    const notInverted = tickAtSqrtRatio(sqrtPriceOfHumanPrice("96000", { ...usdcFirst, baseIsToken0: true }));
    expect(Math.abs(notInverted - tick)).toBeGreaterThan(100_000);
  });

  test("a price range on an inverted pool takes the higher price's tick as tickLower and widens both outwards", () => {
    const [lower, upper] = rangeOfHumanPrices("90549.19", "98876.07", usdcFirst);
    const fromHigh = tickAtSqrtRatio(sqrtPriceOfHumanPrice("98876.07", usdcFirst));
    const fromLow = tickAtSqrtRatio(sqrtPriceOfHumanPrice("90549.19", usdcFirst));
    expect(fromHigh).toBeLessThan(fromLow);
    expect(lower).toBe(Math.floor(fromHigh / 60) * 60);
    expect(upper).toBe(Math.ceil(fromLow / 60) * 60);
    expect([Number.isInteger(lower / 60), Number.isInteger(upper / 60)]).toEqual([true, true]);
    expect([lower <= fromHigh, upper >= fromLow]).toEqual([true, true]);
  });

  test("quoteUnitsPerBase reads a sqrt price back as quote units per whole base token, both token orders", () => {
    const sqrt = sqrtPriceOfHumanPrice("96000", usdcFirst);
    // Rounded down, and within one part in 10^12 of 96,000 USDC = 96,000,000,000 units.
    const back = quoteUnitsPerBase(sqrt, usdcFirst);
    expect(back).toBeLessThanOrEqual(96_000_000_000n + 1n);
    expect(back).toBeGreaterThan(96_000_000_000n - 100n);
    const wbnbFirst: PricedPool = { ...usdcFirst, baseIsToken0: true, baseDecimals: 18, tickSpacing: 10 };
    expect(quoteUnitsPerBase(sqrtPriceOfHumanPrice("301.37", wbnbFirst), wbnbFirst)).toBeGreaterThan(
      301_369_990n,
    );
    expect(quoteUnitsPerBase(sqrtPriceOfHumanPrice("301.37", wbnbFirst), wbnbFirst)).toBeLessThanOrEqual(
      301_370_000n,
    );
  });
});
