import { ethers } from "ethers";

const QUOTER_ABI = [
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
];
const FEED_ABI = [
  "function decimals() view returns (uint8)",
  "function latestAnswer() view returns (int256)",
];
const ROUTER_ABI = [
  "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const quoter = new ethers.Contract(deployedContracts.v3_quoter, QUOTER_ABI, provider);
  const feed = new ethers.Contract(deployedContracts.wbtc_usd_feed, FEED_ABI, provider);
  const amountIn = ethers.parseUnits("{{x}}", 8);
  // The whole amount quoted in each pool: price impact and fee both count, not the spot price.
  let best = { fee: 0, out: -1n };
  for (const fee of [500, 3000, 10000]) {
    const [out]: [bigint] = await quoter.quoteExactInputSingle.staticCall({
      tokenIn: deployedContracts.wbtc,
      tokenOut: deployedContracts.usdc,
      amountIn,
      fee,
      sqrtPriceLimitX96: 0n,
    });
    if (out > best.out) best = { fee, out };
  }
  // Value of x WBTC in USDC units: WBTC units (8 decimals) × answer (feed decimals) → USDC (6 decimals).
  const answer: bigint = await feed.latestAnswer();
  const feedDecimals = BigInt(await feed.decimals());
  const worth = (amountIn * answer * 10n ** 6n) / 10n ** 8n / 10n ** feedDecimals;
  // Rounded up, so a quote exactly at the edge is not let through by rounding.
  const floor = (worth * 99n + 99n) / 100n;
  if (best.out < floor)
    return {
      refuse: {
        reason: `the best pool (fee ${best.fee}) pays ${ethers.formatUnits(best.out, 6)} USDC, below 99 % of the feed's ${ethers.formatUnits(worth, 6)} USDC`,
      },
    };
  const slippageBps = ethers.parseUnits("{{s}}", 2);
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.v3_router,
    data: new ethers.Interface(ROUTER_ABI).encodeFunctionData("exactInputSingle", [
      {
        tokenIn: deployedContracts.wbtc,
        tokenOut: deployedContracts.usdc,
        fee: best.fee,
        recipient: agentAddress,
        deadline: BigInt(latest!.timestamp + 1200),
        amountIn,
        amountOutMinimum: (best.out * (10_000n - slippageBps)) / 10_000n,
        sqrtPriceLimitX96: 0n,
      },
    ]),
  };
}
