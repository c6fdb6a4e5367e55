import { createPublicClient, http, parseAbi } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const tokenUri = await client.readContract({
    address: deployedContracts.erc721_token as `0x${string}`,
    abi: parseAbi(["function tokenURI(uint256 tokenId) view returns (string)"]),
    functionName: "tokenURI",
    args: [BigInt("{{id}}")],
  });
  return { answer: { token_uri: tokenUri } };
}
