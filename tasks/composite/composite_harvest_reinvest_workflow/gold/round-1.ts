import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const pool = new ethers.Interface(["function harvest()"]);
  return { to: deployedContracts.simple_reward_pool, data: pool.encodeFunctionData("harvest", []) };
}
