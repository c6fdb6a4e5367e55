import { Contract, JsonRpcProvider } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new JsonRpcProvider(providerUrl);
  const nft = new Contract(
    deployedContracts.erc721_token,
    ["function balanceOf(address owner) view returns (uint256)"],
    provider,
  );
  const balance: bigint = await nft.balanceOf("{{addr}}");
  return { answer: { balance: Number(balance) } };
}
