import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const iface = new ethers.Interface(["function withdraw(uint256 amount)"]);
  return {
    to: deployedContracts.simple_reward_pool,
    data: iface.encodeFunctionData("withdraw", [ethers.parseUnits("{{x}}", 18)]),
  };
}
