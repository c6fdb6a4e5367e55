import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const market = new ethers.Interface([
    "function repay(uint256 amount, address onBehalfOf) returns (uint256)",
  ]);
  return {
    to: deployedContracts.lend_wbnb,
    data: market.encodeFunctionData("repay", [ethers.MaxUint256, agentAddress]),
  };
}
