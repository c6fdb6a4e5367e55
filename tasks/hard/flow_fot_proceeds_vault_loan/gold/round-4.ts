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
  const deposit = (BigInt(logs.at(-1)!.data) * BigInt("{{p}}")) / 100n;
  const vault = new ethers.Interface([
    "function deposit(uint256 assets, address receiver) returns (uint256)",
  ]);
  return {
    to: deployedContracts.usdt_vault,
    data: vault.encodeFunctionData("deposit", [deposit, agentAddress]),
  };
}
