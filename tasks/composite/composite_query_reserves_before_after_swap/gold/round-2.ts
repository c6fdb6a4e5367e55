import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pair = new ethers.Contract(
    deployedContracts.pair_wbnb_usdt,
    ["function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)"],
    provider,
  );
  // The block of my swap: the pair_wbnb_usdt Swap event that names me as recipient. The block before it
  // is the state the swap started from.
  const head = await provider.getBlockNumber();
  const swaps = await provider.getLogs({
    address: deployedContracts.pair_wbnb_usdt,
    topics: [
      ethers.id("Swap(address,uint256,uint256,uint256,uint256,address)"),
      null,
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: Math.max(0, head - 20),
    toBlock: head,
  });
  if (swaps.length === 0) throw new Error("no swap of mine on pair_wbnb_usdt in the recent blocks");
  const beforeSwap = swaps[swaps.length - 1].blockNumber - 1;
  const [before0, before1] = await pair.getReserves({ blockTag: beforeSwap });
  const [after0, after1] = await pair.getReserves();
  return {
    answer: {
      reserve0_before_wei: before0.toString(),
      reserve1_before_wei: before1.toString(),
      reserve0_after_wei: after0.toString(),
      reserve1_after_wei: after1.toString(),
    },
  };
}
