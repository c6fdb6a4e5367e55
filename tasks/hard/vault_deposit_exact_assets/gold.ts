import { ethers } from "ethers";

const VAULT_ABI = ["function deposit(uint256 assets, address receiver) returns (uint256 shares)"];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  // deposit() takes the asset amount: USDT has 18 decimals; the shares minted are rounded down.
  const vault = new ethers.Interface(VAULT_ABI);
  return {
    to: deployedContracts.usdt_vault,
    data: vault.encodeFunctionData("deposit", [ethers.parseUnits("{{x}}", 18), agentAddress]),
  };
}
