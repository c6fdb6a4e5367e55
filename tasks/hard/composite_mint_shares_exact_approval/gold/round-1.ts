import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const vault = new ethers.Contract(
    deployedContracts.usdt_vault,
    ["function previewMint(uint256 shares) view returns (uint256)"],
    provider,
  );
  // previewMint rounds up, exactly as mint pulls; convertToAssets would be a wei short.
  const cost: bigint = await vault.previewMint(ethers.parseUnits("{{y}}", 18));
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdt,
    data: erc20.encodeFunctionData("approve", [deployedContracts.usdt_vault, cost]),
  };
}
