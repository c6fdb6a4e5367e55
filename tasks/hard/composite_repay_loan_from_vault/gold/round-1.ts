import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const market = new ethers.Contract(
    deployedContracts.lend_wbnb,
    ["function debtOf(address) view returns (uint256)"],
    provider,
  );
  const debt: bigint = await market.debtOf(agentAddress);
  // withdraw(assets) pays exactly `debt` USDT and burns previewWithdraw(debt) shares (rounded up).
  const vault = new ethers.Interface([
    "function withdraw(uint256 assets, address receiver, address owner) returns (uint256)",
  ]);
  return {
    to: deployedContracts.usdt_vault,
    data: vault.encodeFunctionData("withdraw", [debt, agentAddress, agentAddress]),
  };
}
