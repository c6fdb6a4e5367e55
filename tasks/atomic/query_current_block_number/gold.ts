import { createPublicClient, http } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
  return { answer: { block_number: Number(blockNumber) } };
}
