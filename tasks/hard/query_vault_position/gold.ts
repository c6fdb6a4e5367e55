import { ethers } from "ethers";

const VAULT_ABI = [
  "function balanceOf(address) view returns (uint256)",
  "function previewRedeem(uint256 shares) view returns (uint256)",
  "function previewWithdraw(uint256 assets) view returns (uint256)",
  "function previewMint(uint256 shares) view returns (uint256)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const vault = new ethers.Contract(deployedContracts.usdt_vault, VAULT_ABI, provider);
  // preview* round as execution does (withdraw and mint up); convertTo* always round down.
  const shares: bigint = await vault.balanceOf(agentAddress);
  return {
    answer: {
      shares_wei: shares.toString(),
      redeem_value_wei: (await vault.previewRedeem(shares)).toString(),
      withdraw_shares_wei: (await vault.previewWithdraw(ethers.parseUnits("{{x}}", 18))).toString(),
      mint_cost_wei: (await vault.previewMint(ethers.parseUnits("{{y}}", 18))).toString(),
    },
  };
}
