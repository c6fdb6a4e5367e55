import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const usdt = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return { to: deployedContracts.usdt, data: usdt.encodeFunctionData("approve", ["{{drainer}}", 0n]) };
}
