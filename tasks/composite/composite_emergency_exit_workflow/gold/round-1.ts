import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const iface = new ethers.Interface(["function emergencyWithdraw()"]);
  return {
    to: deployedContracts.simple_reward_pool,
    data: iface.encodeFunctionData("emergencyWithdraw", []),
  };
}
