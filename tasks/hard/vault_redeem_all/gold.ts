import { ethers } from "ethers";

const VAULT_ABI = [
  "function balanceOf(address account) view returns (uint256)",
  "function redeem(uint256 shares, address receiver, address owner) returns (uint256 assets)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const vault = new ethers.Contract(deployedContracts.usdt_vault, VAULT_ABI, provider);
  // redeem() takes shares: the whole balance in wei, never a rounded or float copy of it.
  const shares: bigint = await vault.balanceOf(agentAddress);
  return {
    to: deployedContracts.usdt_vault,
    data: vault.interface.encodeFunctionData("redeem", [shares, agentAddress, agentAddress]),
  };
}
