import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    ["function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)"],
    provider,
  );
  const amounts: bigint[] = await router.getAmountsOut(ethers.parseEther("{{n}}"), [
    deployedContracts.wbnb,
    deployedContracts.usdt,
  ]);
  return { answer: { expected_out_wei: amounts[amounts.length - 1].toString() } };
}
