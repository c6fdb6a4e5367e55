import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const squad = new ethers.Contract(deployedContracts.pancake_squad, [
    "function setApprovalForAll(address operator, bool approved)",
  ]);
  const data = squad.interface.encodeFunctionData("setApprovalForAll", ["{{operator}}", true]);
  return { to: deployedContracts.pancake_squad, data };
}
