import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const staking = new ethers.Contract(
    deployedContracts.simple_staking,
    ["function userInfo(address account) view returns (uint256 amount, uint256 depositTime)"],
    provider,
  );
  const usdt = new ethers.Contract(
    deployedContracts.usdt,
    ["function balanceOf(address account) view returns (uint256)"],
    provider,
  );
  // The block of my USDT → CAKE swap: the pair_cake_usdt Swap event that names me as recipient. The block before it
  // is the state the swap started from.
  const head = await provider.getBlockNumber();
  const swaps = await provider.getLogs({
    address: deployedContracts.pair_cake_usdt,
    topics: [
      ethers.id("Swap(address,uint256,uint256,uint256,uint256,address)"),
      null,
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: Math.max(0, head - 20),
    toBlock: head,
  });
  if (swaps.length === 0) throw new Error("no swap of mine on pair_cake_usdt in the recent blocks");
  const beforeSwap = swaps[swaps.length - 1].blockNumber - 1;
  const usdtBefore: bigint = await usdt.balanceOf(agentAddress, { blockTag: beforeSwap });
  const [staked] = await staking.userInfo(agentAddress);
  return { answer: { usdt_balance_before_wei: usdtBefore.toString(), staked_wei: staked.toString() } };
}
