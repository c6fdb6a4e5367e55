import { ethers } from "ethers";

const V2_ROUTER_ABI = [
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
];
const ERC20_ABI = ["function allowance(address owner, address spender) view returns (uint256)"];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const { wbtc, usdc, pancake_router } = deployedContracts;
  // The V2 leg is exactly what round 1 approved.
  const amountIn: bigint = await new ethers.Contract(wbtc, ERC20_ABI, provider).allowance(
    agentAddress,
    pancake_router,
  );
  const router = new ethers.Contract(pancake_router, V2_ROUTER_ABI, provider);
  const [, out]: bigint[] = await router.getAmountsOut(amountIn, [wbtc, usdc]);
  const slippageBps = ethers.parseUnits("{{s}}", 2);
  const deadline = BigInt((await provider.getBlock("latest"))!.timestamp + 1200);
  return {
    to: pancake_router,
    data: router.interface.encodeFunctionData("swapExactTokensForTokens", [
      amountIn,
      (out * (10_000n - slippageBps)) / 10_000n,
      [wbtc, usdc],
      agentAddress,
      deadline,
    ]),
  };
}
