import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const token = new ethers.Contract(
    deployedContracts.usdt,
    ["function balanceOf(address account) view returns (uint256)"],
    provider,
  );
  const balance: bigint = await token.balanceOf(agentAddress);
  return { answer: { usdt_balance_before_wei: balance.toString() } };
}
