import { createPublicClient, http, parseAbi } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const owner = await client.readContract({
    address: deployedContracts.erc721_token as `0x${string}`,
    abi: parseAbi(["function ownerOf(uint256 tokenId) view returns (address)"]),
    functionName: "ownerOf",
    args: [1n],
  });
  return { answer: { owner_before: owner } };
}
