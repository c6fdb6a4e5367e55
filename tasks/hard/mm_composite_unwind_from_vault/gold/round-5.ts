import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  // type(uint256).max repays the debt of the mining block, whatever it has grown to, and pulls only that.
  const market = new ethers.Interface([
    "function repay(uint256 amount, address onBehalfOf) returns (uint256)",
  ]);
  return {
    to: deployedContracts.mm_wbtc_usdc,
    data: market.encodeFunctionData("repay", [ethers.MaxUint256, agentAddress]),
  };
}
