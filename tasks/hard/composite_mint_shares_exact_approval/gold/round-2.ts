import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const vault = new ethers.Interface(["function mint(uint256 shares, address receiver) returns (uint256)"]);
  return {
    to: deployedContracts.usdt_vault,
    data: vault.encodeFunctionData("mint", [ethers.parseUnits("{{y}}", 18), agentAddress]),
  };
}
