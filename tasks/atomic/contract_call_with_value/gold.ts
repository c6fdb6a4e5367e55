import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const box = new ethers.Interface(["function donate() payable"]);
  return {
    to: deployedContracts.donation_box,
    data: box.encodeFunctionData("donate", []),
    value: ethers.parseEther("{{x}}"),
  };
}
