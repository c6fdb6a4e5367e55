import { Interface } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  // eUSDT: approve returns nothing and reverts unless the current allowance or the new value is 0.
  const token = new Interface(["function approve(address spender, uint256 value)"]);
  return {
    to: deployedContracts.eusdt,
    data: token.encodeFunctionData("approve", [deployedContracts.pancake_router, 0n]),
  };
}
