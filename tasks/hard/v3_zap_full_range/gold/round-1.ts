import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const iface = new ethers.Interface(["function deposit() payable"]);
  return {
    to: deployedContracts.wbnb,
    data: iface.encodeFunctionData("deposit", []),
    value: ethers.parseEther("{{n}}"),
  };
}
