import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  // mint(shares) fixes the shares and charges the assets of the mining block (rounded up); an amount
  // of assets computed a block earlier would buy fewer shares once the price has moved on.
  const vault = new ethers.Interface(["function mint(uint256 shares, address receiver) returns (uint256)"]);
  return {
    to: deployedContracts.usdc_stream_vault,
    data: vault.encodeFunctionData("mint", [ethers.parseEther("{{n}}"), agentAddress]),
  };
}
