import { ethers } from "ethers";

const NPM_ABI = [
  "function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)",
  "function collect((uint256 tokenId, address recipient, uint128 amount0Max, uint128 amount1Max) params) payable returns (uint256 amount0, uint256 amount1)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const npm = new ethers.Contract(deployedContracts.v3_positions, NPM_ABI, provider);
  const tokenId: bigint = await npm.tokenOfOwnerByIndex(agentAddress, 0);
  const MAX_UINT128 = (1n << 128n) - 1n;
  return {
    to: deployedContracts.v3_positions,
    data: npm.interface.encodeFunctionData("collect", [
      { tokenId, recipient: agentAddress, amount0Max: MAX_UINT128, amount1Max: MAX_UINT128 },
    ]),
  };
}
