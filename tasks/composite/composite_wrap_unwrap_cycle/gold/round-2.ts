import { Interface, parseEther } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const wbnb = new Interface(["function withdraw(uint256 wad)"]);
  return { to: deployedContracts.wbnb, data: wbnb.encodeFunctionData("withdraw", [parseEther("{{x}}")]) };
}
