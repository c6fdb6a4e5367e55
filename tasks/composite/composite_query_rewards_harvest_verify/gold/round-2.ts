import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pool = new ethers.Contract(
    deployedContracts.simple_reward_pool,
    [
      "event Harvest(address indexed user, uint256 reward)",
      "function pendingReward(address account) view returns (uint256)",
    ],
    provider,
  );
  const cake = new ethers.Contract(
    deployedContracts.cake,
    ["function balanceOf(address owner) view returns (uint256)"],
    provider,
  );
  // The harvest of the previous round, and the pending reward in the state right before its block.
  const head = await provider.getBlockNumber();
  const harvests = await pool.queryFilter(pool.filters.Harvest(agentAddress), Math.max(0, head - 20), head);
  const harvest = harvests.at(-1);
  if (!harvest) throw new Error("no harvest of mine in the last 20 blocks");
  const pendingBefore: bigint = await pool.pendingReward(agentAddress, { blockTag: harvest.blockNumber - 1 });
  const balance: bigint = await cake.balanceOf(agentAddress);
  return {
    answer: { pending_before_wei: pendingBefore.toString(), cake_balance_after_wei: balance.toString() },
  };
}
