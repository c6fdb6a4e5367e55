import { ethers } from "ethers";

const VAULT_ABI = ["function mint(uint256 shares, address receiver) returns (uint256 assets)"];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  // mint() takes the share amount and pulls previewMint(shares) USDT (rounded up) under the allowance.
  const vault = new ethers.Interface(VAULT_ABI);
  return {
    to: deployedContracts.usdt_vault,
    data: vault.encodeFunctionData("mint", [ethers.parseUnits("{{y}}", 18), agentAddress]),
  };
}
