import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const vault = new ethers.Contract(
    deployedContracts.usdc_stream_vault,
    [
      "function balanceOf(address) view returns (uint256)",
      "function redeem(uint256 shares, address receiver, address owner) returns (uint256)",
    ],
    provider,
  );
  // Shares do not change between blocks, assets do: redeeming every share empties the position at
  // whatever price the mining block has.
  const shares: bigint = await vault.balanceOf(agentAddress);
  return {
    to: deployedContracts.usdc_stream_vault,
    data: vault.interface.encodeFunctionData("redeem", [shares, agentAddress, agentAddress]),
  };
}
