import { ethers } from "ethers";

const QUOTER_ABI = [
  "function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
];
const ROUTER_ABI = [
  "function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountIn)",
  "function refundETH() payable",
  "function multicall(bytes[] data) payable returns (bytes[] results)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const quoter = new ethers.Contract(deployedContracts.v3_quoter, QUOTER_ABI, provider);
  const router = new ethers.Interface(ROUTER_ABI);
  const amountOut = ethers.parseUnits("{{y}}", 18);
  const [quotedIn]: [bigint] = await quoter.quoteExactOutputSingle.staticCall({
    tokenIn: deployedContracts.wbnb,
    tokenOut: deployedContracts.usdt,
    amount: amountOut,
    fee: 500,
    sqrtPriceLimitX96: 0n,
  });
  const slippageBps = ethers.parseUnits("{{s}}", 2);
  const amountInMaximum = (quotedIn * (10_000n + slippageBps)) / 10_000n;
  const latest = await provider.getBlock("latest");
  const swap = router.encodeFunctionData("exactOutputSingle", [
    {
      tokenIn: deployedContracts.wbnb, // WETH9 input paid with the value sent
      tokenOut: deployedContracts.usdt,
      fee: 500,
      recipient: agentAddress,
      deadline: BigInt(latest!.timestamp + 1200),
      amountOut,
      amountInMaximum,
      sqrtPriceLimitX96: 0n,
    },
  ]);
  // Exact output leaves (value − amountIn) BNB in the router unless refundETH sends it back.
  return {
    to: deployedContracts.v3_router,
    value: amountInMaximum,
    data: router.encodeFunctionData("multicall", [[swap, router.encodeFunctionData("refundETH")]]),
  };
}
