import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const nft = new ethers.Interface(["function safeTransferFrom(address from, address to, uint256 tokenId)"]);
  return {
    to: deployedContracts.pancake_squad,
    data: nft.encodeFunctionData("safeTransferFrom", [agentAddress, deployedContracts.nft_receiver, 1n]),
    value: 0n,
  };
}
