import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    ["function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)"],
    provider,
  );
  const usdt = new ethers.Contract(
    deployedContracts.usdt,
    ["function balanceOf(address account) view returns (uint256)"],
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
  const amounts: bigint[] = await router.getAmountsOut(
    ethers.parseEther("{{n}}"),
    [deployedContracts.wbnb, deployedContracts.usdt],
    {
      blockTag: beforeSwap,
    },
  );
  const balance: bigint = await usdt.balanceOf(agentAddress);
  return {
    answer: {
      expected_out_wei: amounts[amounts.length - 1].toString(),
      usdt_balance_after_wei: balance.toString(),
    },
  };
}
