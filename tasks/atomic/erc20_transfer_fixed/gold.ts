import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const erc20 = new ethers.Interface(["function transfer(address to, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdt,
    data: erc20.encodeFunctionData("transfer", ["{{to}}", ethers.parseUnits("{{x}}", 18)]),
    value: 0n,
  };
}
