import { Interface, parseUnits } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const erc20 = new Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.fot,
    data: erc20.encodeFunctionData("approve", [deployedContracts.pancake_router, parseUnits("{{x}}", 18)]),
  };
}
