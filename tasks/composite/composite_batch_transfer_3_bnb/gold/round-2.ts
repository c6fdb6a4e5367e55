import { parseEther } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  return { to: "{{addr2}}", value: parseEther("{{x2}}") };
}
