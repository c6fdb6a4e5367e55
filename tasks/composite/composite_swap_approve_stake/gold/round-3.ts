import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The CAKE my BNB → CAKE swap paid me: the last Transfer of CAKE from pair_wbnb_cake to my address, in the recent blocks.
  const head = await provider.getBlockNumber();
  const logs = await provider.getLogs({
    address: deployedContracts.cake,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(deployedContracts.pair_wbnb_cake, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: Math.max(0, head - 20),
    toBlock: head,
  });
  if (logs.length === 0) throw new Error("no CAKE from pair_wbnb_cake found in the recent blocks");
  const received = BigInt(logs[logs.length - 1].data);
  const staking = new ethers.Interface(["function deposit(uint256 amount)"]);
  return { to: deployedContracts.simple_staking, data: staking.encodeFunctionData("deposit", [received]) };
}
