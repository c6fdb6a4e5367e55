import { ethers } from "ethers";

const ERC20_ABI = ["function balanceOf(address account) view returns (uint256)"];
const SWAP_TOPIC = ethers.id("Swap(address,uint256,uint256,uint256,uint256,address)");

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const usdt = new ethers.Contract(deployedContracts.usdt, ERC20_ABI, provider);
  const cake = new ethers.Contract(deployedContracts.cake, ERC20_ABI, provider);
  const busd = new ethers.Contract(deployedContracts.busd, ERC20_ABI, provider);
  // The state before each swap of mine: the block before the pair's Swap event naming me as recipient.
  const head = await provider.getBlockNumber();
  const blockBeforeMySwap = async (pair: string) => {
    const logs = await provider.getLogs({
      address: pair,
      topics: [SWAP_TOPIC, null, ethers.zeroPadValue(agentAddress, 32)],
      fromBlock: Math.max(0, head - 20),
      toBlock: head,
    });
    if (logs.length === 0) throw new Error(`no swap of mine on ${pair} in the recent blocks`);
    return logs[logs.length - 1].blockNumber - 1;
  };
  const usdtBefore: bigint = await usdt.balanceOf(agentAddress, {
    blockTag: await blockBeforeMySwap(deployedContracts.pair_usdt_busd),
  });
  const cakeBefore: bigint = await cake.balanceOf(agentAddress, {
    blockTag: await blockBeforeMySwap(deployedContracts.pair_cake_busd),
  });
  const busdNow: bigint = await busd.balanceOf(agentAddress);
  return {
    answer: {
      usdt_balance_before_wei: usdtBefore.toString(),
      cake_balance_before_wei: cakeBefore.toString(),
      busd_balance_wei: busdNow.toString(),
    },
  };
}
