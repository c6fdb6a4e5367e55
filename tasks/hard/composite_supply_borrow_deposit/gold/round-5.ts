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
  const borrowed: bigint = await market.debtOf(agentAddress);
  const vault = new ethers.Interface([
    "function deposit(uint256 assets, address receiver) returns (uint256)",
  ]);
  return {
    to: deployedContracts.usdt_vault,
    data: vault.encodeFunctionData("deposit", [borrowed, agentAddress]),
  };
}
