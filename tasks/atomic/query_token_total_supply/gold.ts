import { createPublicClient, erc20Abi, http } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const supply = await client.readContract({
    address: deployedContracts.usdt as `0x${string}`,
    abi: erc20Abi,
    functionName: "totalSupply",
  });
  return { answer: { total_supply_wei: supply.toString() } };
}
