import { createPublicClient, http, parseAbi } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const balance = await client.readContract({
    address: deployedContracts.erc1363_token as `0x${string}`,
    abi: parseAbi(["function balanceOf(address account) view returns (uint256)"]),
    functionName: "balanceOf",
    args: ["{{addr}}" as `0x${string}`],
  });
  return { answer: { balance_wei: balance.toString() } };
}
