import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const usdt = new ethers.Interface([
    "function transferFrom(address from, address to, uint256 amount) returns (bool)",
  ]);
  return {
    to: deployedContracts.usdt,
    data: usdt.encodeFunctionData("transferFrom", [
      deployedContracts.rich_address,
      "{{to}}",
      ethers.parseUnits("{{x}}", 18),
    ]),
  };
}
