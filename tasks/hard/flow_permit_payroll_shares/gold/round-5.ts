import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const permit2 = new ethers.Contract(
    deployedContracts.quest_permit2,
    [
      "function nonceBitmap(address, uint256) view returns (uint256)",
      "function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)",
    ],
    provider,
  );
  const bitmap: bigint = await permit2.nonceBitmap(agentAddress, 0n);
  const unused = ethers.MaxUint256 ^ bitmap; // the bits still 0
  return {
    to: deployedContracts.quest_permit2,
    data: permit2.interface.encodeFunctionData("invalidateUnorderedNonces", [0n, unused]),
  };
}
