import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The CAKE my USDT → CAKE swap paid me: the last Transfer of CAKE from pair_cake_usdt to my address, in the recent blocks.
  const head = await provider.getBlockNumber();
  const logs = await provider.getLogs({
    address: deployedContracts.cake,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(deployedContracts.pair_cake_usdt, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: Math.max(0, head - 20),
    toBlock: head,
  });
  if (logs.length === 0) throw new Error("no CAKE from pair_cake_usdt found in the recent blocks");
  const received = BigInt(logs[logs.length - 1].data);
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.cake,
    data: erc20.encodeFunctionData("approve", [deployedContracts.pancake_router, received]),
  };
}
