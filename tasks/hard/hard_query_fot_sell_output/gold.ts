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
  const fot = new ethers.Contract(
    deployedContracts.fot,
    ["function feeBps() view returns (uint256)"],
    provider,
  );
  const sent = ethers.parseUnits("{{x}}", 18);
  const feeBps: bigint = await fot.feeBps();
  const reachesPool = sent - (sent * feeBps) / 10_000n; // the fee is rounded down
  const amounts: bigint[] = await router.getAmountsOut(reachesPool, [
    deployedContracts.fot,
    deployedContracts.wbnb,
  ]);
  return { answer: { wbnb_out_wei: amounts[1].toString() } };
}
