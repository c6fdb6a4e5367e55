import { ethers } from "ethers";

const QUOTER_ABI = [
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
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
  const amountIn = ethers.parseUnits("{{x}}", 18);
  // Quote both tiers for this exact amount: price, fee and depth all matter, not the fee alone.
  let best = { fee: 0, out: -1n };
  for (const fee of [500, 3000]) {
    const [out]: [bigint] = await quoter.quoteExactInputSingle.staticCall({
      tokenIn: deployedContracts.wbnb,
      tokenOut: deployedContracts.usdt,
      amountIn,
      fee,
      sqrtPriceLimitX96: 0n,
    });
    if (out > best.out) best = { fee, out };
  }
  const slippageBps = ethers.parseUnits("{{s}}", 2);
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.v3_router,
    data: new ethers.Interface(ROUTER_ABI).encodeFunctionData("exactInputSingle", [
      {
        tokenIn: deployedContracts.wbnb,
        tokenOut: deployedContracts.usdt,
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
