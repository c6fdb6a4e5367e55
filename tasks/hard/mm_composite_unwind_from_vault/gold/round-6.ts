import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const market = new ethers.Interface(["function withdraw(uint256 amount, address to) returns (uint256)"]);
  return {
    to: deployedContracts.mm_wbtc_usdc,
    data: market.encodeFunctionData("withdraw", [ethers.MaxUint256, agentAddress]),
  };
}
