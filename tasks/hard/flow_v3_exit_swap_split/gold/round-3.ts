import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const npm = new ethers.Contract(
    deployedContracts.v3_positions,
    [
      "function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)",
      "function burn(uint256 tokenId) payable",
    ],
    provider,
  );
  const tokenId: bigint = await npm.tokenOfOwnerByIndex(agentAddress, 0);
  return { to: deployedContracts.v3_positions, data: npm.interface.encodeFunctionData("burn", [tokenId]) };
}
