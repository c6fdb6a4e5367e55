import { ethers } from "ethers";

const ROUTER_ABI = [
  "function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)",
  "function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(deployedContracts.pancake_router, ROUTER_ABI, provider);
  const amountOut = ethers.parseUnits("{{y}}", 18); // exact BUSD wanted
  const path = [deployedContracts.usdt, deployedContracts.busd];
  const amounts: bigint[] = await router.getAmountsIn(amountOut, path);
  const amountInMax = (amounts[0] * 105n) / 100n; // pay at most the quote + 5 %
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60);
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapTokensForExactTokens", [
      amountOut,
      amountInMax,
      path,
      agentAddress,
      deadline,
    ]),
  };
}
