import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The CAKE the swap delivered: the last CAKE Transfer from pair_cake_usdt to me.
  const logs = await provider.getLogs({
    address: deployedContracts.cake,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(deployedContracts.pair_cake_usdt, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: 0,
  });
  const market = new ethers.Interface(["function supply(uint256 amount, address onBehalfOf)"]);
  return {
    to: deployedContracts.lend_cake,
    data: market.encodeFunctionData("supply", [BigInt(logs.at(-1)!.data), agentAddress]),
  };
}
