import { Interface, parseUnits } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const usdt = new Interface([
    "function transferFrom(address from, address to, uint256 amount) returns (bool)",
  ]);
  return {
    to: deployedContracts.usdt,
    data: usdt.encodeFunctionData("transferFrom", ["{{buyer}}", agentAddress, parseUnits("{{pay}}", 18)]),
  };
}
