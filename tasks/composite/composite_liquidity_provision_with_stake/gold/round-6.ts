import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const staking = new ethers.Contract(
    deployedContracts.simple_lp_staking,
    ["function userInfo(address) view returns (uint256 amount, uint256 depositTime)"],
    provider,
  );
  const info = await staking.userInfo(agentAddress);
  return { answer: { staked_wei: (info.amount as bigint).toString() } };
}
