import { ethers } from "ethers";

const MARKET_ABI = ["function repay(uint256 amount, address onBehalfOf) returns (uint256)"];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  // type(uint256).max repays exactly the whole debt (the market caps it), never a rounded copy.
  const market = new ethers.Interface(MARKET_ABI);
  return {
    to: deployedContracts.lend_cake,
    data: market.encodeFunctionData("repay", [ethers.MaxUint256, agentAddress]),
  };
}
