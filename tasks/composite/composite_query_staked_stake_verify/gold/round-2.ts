import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const staking = new ethers.Contract(
    deployedContracts.simple_staking,
    [
      "event Deposit(address indexed user, uint256 amount)",
      "function userInfo(address) view returns (uint256 amount, uint256 depositTime)",
    ],
    provider,
  );
  // The deposit of the previous round, and my stake in the state right before its block.
  const head = await provider.getBlockNumber();
  const deposits = await staking.queryFilter(
    staking.filters.Deposit(agentAddress),
    Math.max(0, head - 20),
    head,
  );
  const deposit = deposits.at(-1);
  if (!deposit) throw new Error("no deposit of mine in the last 20 blocks");
  const before = await staking.userInfo(agentAddress, { blockTag: deposit.blockNumber - 1 });
  const after = await staking.userInfo(agentAddress);
  return {
    answer: {
      staked_before_wei: (before.amount as bigint).toString(),
      staked_after_wei: (after.amount as bigint).toString(),
    },
  };
}
