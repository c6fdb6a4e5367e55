import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const iface = new ethers.Interface(["function deposit(uint256 amount)"]);
  return {
    to: deployedContracts.simple_lp_staking,
    data: iface.encodeFunctionData("deposit", [ethers.parseUnits("{{x}}", 18)]),
  };
}
