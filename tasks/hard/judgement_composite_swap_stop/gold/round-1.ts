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
  const amountIn = ethers.parseEther("{{x}}");
  const amounts: bigint[] = await router.getAmountsOut(amountIn, [
    deployedContracts.wbnb,
    deployedContracts.usdt,
  ]);
  const floor =
    (amountIn * ethers.parseUnits("{{ref}}", 18) * (100n - BigInt("{{loss}}"))) / 100n / 10n ** 18n;
  return { answer: { quote: amounts[1].toString(), floor: floor.toString() } };
}
