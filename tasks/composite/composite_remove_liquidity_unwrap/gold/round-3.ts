import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const balance = await provider.getBalance(agentAddress);
  return { answer: { bnb_balance_wei: balance.toString() } };
}
