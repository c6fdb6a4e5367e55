import { parseEther } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  return { to: deployedContracts.wbnb, data: "0xd0e30db0", value: parseEther("{{x}}") };
}
