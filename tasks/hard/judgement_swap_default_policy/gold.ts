import { ethers } from "ethers";

const ROUTER_ABI = [
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(deployedContracts.pancake_router, ROUTER_ABI, provider);
  const amountIn = ethers.parseUnits("{{x}}", 18);
  const path = [deployedContracts.usdt, deployedContracts.busd];
  const amounts: bigint[] = await router.getAmountsOut(amountIn, path);
  const amountOutMin = (amounts[amounts.length - 1] * 99n) / 100n; // the default policy: 1 %
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60);
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapExactTokensForTokens", [
      amountIn,
      amountOutMin,
      path,
      agentAddress,
      deadline,
    ]),
  };
}
