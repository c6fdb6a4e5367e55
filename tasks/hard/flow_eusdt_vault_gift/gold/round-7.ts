import { Interface, parseUnits } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  // The swap pulled exactly the {{x}} approved, so the allowance is 0 and may be set directly.
  const token = new Interface(["function approve(address spender, uint256 value)"]);
  return {
    to: deployedContracts.eusdt,
    data: token.encodeFunctionData("approve", [
      deployedContracts.pancake_router,
      parseUnits("{{current}}", 6),
    ]),
  };
}
