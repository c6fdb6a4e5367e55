import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The WBNB my USDT → WBNB swap paid me: the last Transfer of WBNB from pair_wbnb_usdt to my address, in the recent blocks.
  const head = await provider.getBlockNumber();
  const logs = await provider.getLogs({
    address: deployedContracts.wbnb,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(deployedContracts.pair_wbnb_usdt, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: Math.max(0, head - 20),
    toBlock: head,
  });
  if (logs.length === 0) throw new Error("no WBNB from pair_wbnb_usdt found in the recent blocks");
  const received = BigInt(logs[logs.length - 1].data);
  const wbnb = new ethers.Interface(["function withdraw(uint256 wad)"]);
  return { to: deployedContracts.wbnb, data: wbnb.encodeFunctionData("withdraw", [received]) };
}
