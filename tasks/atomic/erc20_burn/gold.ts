import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const token = new ethers.Interface(["function burn(uint256 amount)"]);
  return {
    to: deployedContracts.erc1363_token,
    data: token.encodeFunctionData("burn", [ethers.parseUnits("{{x}}", 18)]),
  };
}
