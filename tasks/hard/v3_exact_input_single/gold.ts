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
  const router = new ethers.Interface(ROUTER_ABI);
  const amountIn = ethers.parseUnits("{{x}}", 18);
  // The quoter is not a view function: staticCall runs it as eth_call.
  const [quoted]: [bigint] = await quoter.quoteExactInputSingle.staticCall({
    tokenIn: deployedContracts.wbnb,
    tokenOut: deployedContracts.usdt,
    amountIn,
    fee: 3000,
    sqrtPriceLimitX96: 0n,
  });
  const slippageBps = ethers.parseUnits("{{s}}", 2); // 0.5 % = 50 bps
  const amountOutMinimum = (quoted * (10_000n - slippageBps)) / 10_000n;
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.v3_router,
    data: router.encodeFunctionData("exactInputSingle", [
      {
        tokenIn: deployedContracts.wbnb,
        tokenOut: deployedContracts.usdt,
        fee: 3000,
        recipient: agentAddress,
        deadline: BigInt(latest!.timestamp + 1200),
        amountIn,
        amountOutMinimum,
        sqrtPriceLimitX96: 0n,
      },
    ]),
  };
}
