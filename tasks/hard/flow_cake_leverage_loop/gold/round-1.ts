import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const market = new ethers.Interface(["function supply(uint256 amount, address onBehalfOf)"]);
  return {
    to: deployedContracts.lend_cake,
    data: market.encodeFunctionData("supply", [ethers.parseUnits("{{c}}", 18), agentAddress]),
  };
}
