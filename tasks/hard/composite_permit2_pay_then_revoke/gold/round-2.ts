import { Interface } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const erc20 = new Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.qsd_token,
    data: erc20.encodeFunctionData("approve", [deployedContracts.quest_permit2, 0n]),
  };
}
