import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const market = new ethers.Contract(
    deployedContracts.lend_cake,
    ["function debtOf(address) view returns (uint256)"],
    provider,
  );
  const borrowed: bigint = await market.debtOf(agentAddress); // no lend_cake debt before this task
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdt,
    data: erc20.encodeFunctionData("approve", [deployedContracts.usdt_vault, borrowed]),
  };
}
