import { createPublicClient, erc20Abi, type Hex, http, parseAbiItem } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const token = deployedContracts.qsteth as Hex;
  const rebases = await client.getLogs({
    address: token,
    event: parseAbiItem("event Rebased(uint256 totalPooled, uint256 totalShares)"),
    fromBlock: 0n,
    toBlock: "latest",
  });
  const block = rebases[rebases.length - 1]!.blockNumber!;
  // "Just before" is the state at the end of the previous block: a read at `block` already includes the rebase.
  const balance = await client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [agentAddress as Hex],
    blockNumber: block - 1n,
  });
  return { answer: { rebase_block: block.toString(), balance_before_wei: balance.toString() } };
}
