import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const staking = new ethers.Contract(
    deployedContracts.simple_staking,
    ["function userInfo(address account) view returns (uint256 amount, uint256 depositTime)"],
    provider,
  );
  const [amount, depositTime] = await staking.userInfo("{{addr}}");
  return { answer: { staked_wei: amount.toString(), deposit_time: Number(depositTime) } };
}
