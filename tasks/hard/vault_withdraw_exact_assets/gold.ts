import { ethers } from "ethers";

const VAULT_ABI = [
  "function withdraw(uint256 assets, address receiver, address owner) returns (uint256 shares)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  // withdraw() takes the asset amount and burns previewWithdraw(assets) shares (rounded up).
  const vault = new ethers.Interface(VAULT_ABI);
  return {
    to: deployedContracts.usdt_vault,
    data: vault.encodeFunctionData("withdraw", [ethers.parseUnits("{{x}}", 18), agentAddress, agentAddress]),
  };
}
