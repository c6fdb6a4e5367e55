import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const counter = new ethers.Interface(["function increment()"]);
  return { to: deployedContracts.simple_counter, data: counter.encodeFunctionData("increment", []) };
}
