import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const token = new ethers.Contract(
    deployedContracts.qsteth,
    [
      "function sharesOf(address) view returns (uint256)",
      "function transferShares(address to, uint256 shares) returns (uint256)",
    ],
    provider,
  );
  // Shares, not the balance: transfer(balanceOf) converts the rounded-down balance back to shares,
  // rounding down again, and leaves one share behind.
  const shares: bigint = await token.sharesOf(agentAddress);
  return {
    to: deployedContracts.qsteth,
    data: token.interface.encodeFunctionData("transferShares", ["{{to}}", shares]),
  };
}
