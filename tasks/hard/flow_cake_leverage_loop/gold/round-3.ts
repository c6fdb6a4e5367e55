import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const market = new ethers.Contract(
    deployedContracts.lend_cake,
    ["function debtOf(address) view returns (uint256)"],
    provider,
  );
  const borrowed: bigint = await market.debtOf(agentAddress); // the first and only loan so far
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    [
      "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
      "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
    ],
    provider,
  );
  const path = [deployedContracts.usdt, deployedContracts.cake];
  const amounts: bigint[] = await router.getAmountsOut(borrowed, path);
  const sPpm = ethers.parseUnits("{{s}}", 4);
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapExactTokensForTokens", [
      borrowed,
      (amounts[1]! * (1_000_000n - sPpm)) / 1_000_000n,
      path,
      agentAddress,
      BigInt(latest!.timestamp + 1200),
    ]),
  };
}
