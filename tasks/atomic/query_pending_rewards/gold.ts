import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pool = new ethers.Contract(
    deployedContracts.simple_reward_pool,
    ["function pendingReward(address account) view returns (uint256)"],
    provider,
  );
  const pending: bigint = await pool.pendingReward("{{addr}}");
  return { answer: { pending_wei: pending.toString() } };
}
