import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    ["function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)"],
    provider,
  );
  const amounts: bigint[] = await router.getAmountsIn(ethers.parseUnits("{{y}}", 18), [
    deployedContracts.usdt,
    deployedContracts.busd,
  ]);
  return { answer: { amount_in_wei: amounts[0].toString() } };
}
