import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const usdt = new ethers.Interface([
    "function decreaseAllowance(address spender, uint256 subtractedValue) returns (bool)",
  ]);
  return {
    to: deployedContracts.usdt,
    data: usdt.encodeFunctionData("decreaseAllowance", [
      deployedContracts.pancake_router,
      ethers.parseUnits("{{x}}", 18),
    ]),
  };
}
