import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const usdt = new ethers.Interface([
    "function increaseAllowance(address spender, uint256 addedValue) returns (bool)",
  ]);
  return {
    to: deployedContracts.usdt,
    data: usdt.encodeFunctionData("increaseAllowance", [
      deployedContracts.pancake_router,
      ethers.parseUnits("{{x}}", 18),
    ]),
  };
}
