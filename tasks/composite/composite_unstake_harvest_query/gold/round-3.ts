import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const cake = new ethers.Contract(
    deployedContracts.cake,
    ["function balanceOf(address owner) view returns (uint256)"],
    provider,
  );
  const balance: bigint = await cake.balanceOf(agentAddress);
  return { answer: { cake_balance_wei: balance.toString() } };
}
