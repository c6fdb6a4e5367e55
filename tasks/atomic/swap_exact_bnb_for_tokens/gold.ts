import { ethers } from "ethers";

const ROUTER_ABI = [
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(deployedContracts.pancake_router, ROUTER_ABI, provider);
  const amountIn = ethers.parseEther("{{x}}");
  const path = [deployedContracts.wbnb, deployedContracts.usdt];
  const amounts: bigint[] = await router.getAmountsOut(amountIn, path);
  const amountOutMin = (amounts[amounts.length - 1] * 95n) / 100n; // 5 % slippage
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60); // chain time, not the wall clock
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapExactETHForTokens", [
      amountOutMin,
      path,
      agentAddress,
      deadline,
    ]),
    value: amountIn,
  };
}
