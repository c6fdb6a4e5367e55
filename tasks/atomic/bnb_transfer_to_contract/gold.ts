import { parseEther } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  return { to: deployedContracts.wbnb, value: parseEther("{{x}}") };
}
