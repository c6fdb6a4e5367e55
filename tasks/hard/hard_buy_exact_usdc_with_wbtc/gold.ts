import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    [
      "function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)",
      "function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
    ],
    provider,
  );
  const amountOut = ethers.parseUnits("{{z}}", 6); // USDC: 6 decimals
  const path = [deployedContracts.wbtc, deployedContracts.usdc];
  const amounts: bigint[] = await router.getAmountsIn(amountOut, path); // WBTC units (8 decimals)
  const sPpm = ethers.parseUnits("{{s}}", 4);
  const amountInMax = (amounts[0] * (1_000_000n + sPpm)) / 1_000_000n; // rounded down: never above the cap
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapTokensForExactTokens", [
      amountOut,
      amountInMax,
      path,
      agentAddress,
      BigInt(latest!.timestamp + 1200),
    ]),
  };
}
