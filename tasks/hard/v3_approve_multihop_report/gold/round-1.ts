import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.cake,
    data: erc20.encodeFunctionData("approve", [deployedContracts.v3_router, ethers.parseUnits("{{x}}", 18)]),
  };
}
