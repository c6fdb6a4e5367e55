import { Interface, parseEther } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const wbnb = new Interface(["function deposit() payable"]);
  return {
    to: deployedContracts.wbnb,
    data: wbnb.encodeFunctionData("deposit", []),
    value: parseEther("{{w}}"),
  };
}
