import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const wbnb = new ethers.Interface(["function deposit() payable"]);
  return {
    to: deployedContracts.wbnb,
    data: wbnb.encodeFunctionData("deposit"),
    value: ethers.parseEther("{{x}}"),
  };
}
