import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const market = new ethers.Interface(["function withdraw(uint256 amount, address to) returns (uint256)"]);
  return {
    to: deployedContracts.lend_wbnb,
    data: market.encodeFunctionData("withdraw", [ethers.MaxUint256, agentAddress]),
  };
}
