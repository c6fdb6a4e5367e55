import { hexlify, parseEther, toUtf8Bytes } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  return { to: "{{to}}", value: parseEther("{{x}}"), data: hexlify(toUtf8Bytes("{{msg}}")) };
}
