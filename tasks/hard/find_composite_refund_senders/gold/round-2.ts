import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseAbiItem,
} from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const exchange = getAddress("{{exchange}}");
  const logs = await client.getLogs({
    address: deployedContracts.usdc as Hex,
    event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
    args: { to: agentAddress as Hex },
    fromBlock: BigInt("{{cutoff}}"),
    toBlock: "latest",
  });
  const owed = new Map<Hex, bigint>();
  for (const log of logs) {
    const from = getAddress(log.args.from!);
    if (from !== exchange) owed.set(from, (owed.get(from) ?? 0n) + log.args.value!);
  }
  // Round N refunds the N-th sender in address order (the plan's order).
  const [to, amount] = [...owed].sort(([x], [y]) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1))[1]!;
  return {
    to: deployedContracts.usdc as Hex,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, amount] }),
  };
}
