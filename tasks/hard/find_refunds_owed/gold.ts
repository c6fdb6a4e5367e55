import { createPublicClient, getAddress, type Hex, http, parseAbiItem } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const exchange = getAddress("{{exchange}}");
  // Only USDC's own Transfer logs into the agent, from the cutoff block on (fromBlock is inclusive).
  const logs = await client.getLogs({
    address: deployedContracts.usdc as Hex,
    event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
    args: { to: agentAddress as Hex },
    fromBlock: BigInt("{{cutoff}}"),
    toBlock: "latest",
  });
  const bySender = new Map<string, bigint>();
  for (const log of logs) {
    const from = getAddress(log.args.from!);
    if (from === exchange) continue;
    bySender.set(from, (bySender.get(from) ?? 0n) + log.args.value!);
  }
  let total = 0n;
  let top: [string, bigint] = ["", -1n];
  for (const [from, sum] of bySender) {
    total += sum;
    if (sum > top[1]) top = [from, sum];
  }
  return {
    answer: {
      total_units: total.toString(),
      senders: bySender.size.toString(),
      top_sender: top[0],
      top_units: top[1].toString(),
    },
  };
}
