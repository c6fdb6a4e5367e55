import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const lp = new ethers.Contract(
    deployedContracts.pair_eusdt_usdc,
    [
      "function balanceOf(address) view returns (uint256)",
      "function transfer(address to, uint256 amount) returns (bool)",
    ],
    provider,
  );
  // The agent held none of this LP before: its whole balance is what the deposit minted.
  const minted: bigint = await lp.balanceOf(agentAddress);
  return {
    to: deployedContracts.pair_eusdt_usdc,
    data: lp.interface.encodeFunctionData("transfer", ["{{to}}", minted]),
  };
}
