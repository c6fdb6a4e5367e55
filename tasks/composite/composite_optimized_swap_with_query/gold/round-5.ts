import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const busd = new ethers.Contract(
    deployedContracts.busd,
    ["function balanceOf(address account) view returns (uint256)"],
    provider,
  );
  const pair = new ethers.Contract(
    deployedContracts.pair_usdt_busd,
    ["function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)"],
    provider,
  );
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    ["function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)"],
    provider,
  );
  // The block of my swap: the pair_usdt_busd Swap event that names me as recipient. The block before it
  // is the state the swap started from.
  const head = await provider.getBlockNumber();
  const swaps = await provider.getLogs({
    address: deployedContracts.pair_usdt_busd,
    topics: [
      ethers.id("Swap(address,uint256,uint256,uint256,uint256,address)"),
      null,
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: Math.max(0, head - 20),
    toBlock: head,
  });
  if (swaps.length === 0) throw new Error("no swap of mine on pair_usdt_busd in the recent blocks");
  const beforeSwap = swaps[swaps.length - 1].blockNumber - 1;
  // The values rounds 1 and 2 reported, read again at the state they were read from.
  const [reserve0, reserve1] = await pair.getReserves({ blockTag: beforeSwap });
  const amounts: bigint[] = await router.getAmountsOut(
    ethers.parseUnits("{{x}}", 18),
    [deployedContracts.usdt, deployedContracts.busd],
    {
      blockTag: beforeSwap,
    },
  );
  const balance: bigint = await busd.balanceOf(agentAddress);
  return {
    answer: {
      reserve0_before_wei: reserve0.toString(),
      reserve1_before_wei: reserve1.toString(),
      expected_out_wei: amounts[amounts.length - 1].toString(),
      busd_balance_wei: balance.toString(),
    },
  };
}
