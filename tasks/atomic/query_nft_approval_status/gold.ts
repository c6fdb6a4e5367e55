import { Contract, JsonRpcProvider } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new JsonRpcProvider(providerUrl);
  const nft = new Contract(
    deployedContracts.erc721_token,
    ["function getApproved(uint256 tokenId) view returns (address)"],
    provider,
  );
  const approved: string = await nft.getApproved(BigInt("{{id}}"));
  return { answer: { approved } };
}
