import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const logs = await provider.getLogs({
    address: deployedContracts.usdt,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(deployedContracts.pair_wbnb_usdt, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: 0,
  });
  const market = new ethers.Interface([
    "function repay(uint256 amount, address onBehalfOf) returns (uint256)",
  ]);
  return {
    to: deployedContracts.lend_wbnb,
    data: market.encodeFunctionData("repay", [BigInt(logs.at(-1)!.data), agentAddress]),
  };
}
