import { createPublicClient, http } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const [gasPrice, block] = await Promise.all([
    client.getGasPrice(),
    client.getBlock({ blockTag: "latest" }),
  ]);
  return {
    answer: { gas_price_wei: gasPrice.toString(), base_fee_wei: (block.baseFeePerGas ?? 0n).toString() },
  };
}
