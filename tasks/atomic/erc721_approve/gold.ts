import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const squad = new ethers.Contract(deployedContracts.pancake_squad, [
    "function approve(address to, uint256 tokenId)",
  ]);
  const data = squad.interface.encodeFunctionData("approve", ["{{spender}}", 1n]);
  return { to: deployedContracts.pancake_squad, data };
}
