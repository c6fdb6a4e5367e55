import { ethers } from "ethers";

const POOL_ABI = [
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
  "function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)",
  "function fee() view returns (uint24)",
];
const ROUTER_ABI = [
  "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)",
];
const QUOTER_ABI = [
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pool = new ethers.Contract(deployedContracts.v3pool_wbnb_usdc, POOL_ABI, provider);
  const [cumulatives] = await pool.observe([7200, 0]);
  const delta = BigInt(cumulatives[1]) - BigInt(cumulatives[0]);
  let meanTick = delta / 7200n;
  if (delta < 0n && delta % 7200n !== 0n) meanTick -= 1n; // toward −∞, as OracleLibrary
  const [sqrtPriceX96] = await pool.slot0();
  // Both prices as token1/token0 raw ratios: the decimals cancel in the ratio.
  const spot = (Number(sqrtPriceX96) / 2 ** 96) ** 2;
  const twap = 1.0001 ** Number(meanTick);
  const deviation = Math.abs(spot / twap - 1);
  if (deviation > Number("{{t}}") / 100)
    return {
      refuse: {
        reason: `spot deviates ${(deviation * 100).toFixed(3)} % from the 2-hour TWAP, more than {{t}} %`,
      },
    };
  const { usdc, wbnb } = deployedContracts;
  const fee = await pool.fee();
  const amountIn = ethers.parseUnits("{{x}}", 6);
  const quoter = new ethers.Contract(deployedContracts.v3_quoter, QUOTER_ABI, provider);
  const [quoted] = await quoter.quoteExactInputSingle.staticCall({
    tokenIn: usdc,
    tokenOut: wbnb,
    amountIn,
    fee,
    sqrtPriceLimitX96: 0n,
  });
  const bps = ethers.parseUnits("{{s}}", 2);
  const router = new ethers.Contract(deployedContracts.v3_router, ROUTER_ABI, provider);
  const latest = await provider.getBlock("latest");
  const params = {
    tokenIn: usdc,
    tokenOut: wbnb,
    fee,
    recipient: agentAddress,
    deadline: BigInt(latest!.timestamp + 1200),
    amountIn,
    amountOutMinimum: (quoted * (10_000n - bps)) / 10_000n,
    sqrtPriceLimitX96: 0n,
  };
  return {
    to: deployedContracts.v3_router,
    data: router.interface.encodeFunctionData("exactInputSingle", [params]),
  };
}
