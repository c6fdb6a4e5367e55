import { ethers } from "ethers";

/** The USDT the swap of round 3 paid to the agent, from its Transfer log (pool → agent). */
export async function swappedUsdt(
  provider: ethers.JsonRpcProvider,
  agent: string,
  c: Record<string, string>,
) {
  const factory = new ethers.Contract(
    c.v3_factory,
    ["function getPool(address, address, uint24) view returns (address)"],
    provider,
  );
  const pool: string = await factory.getPool(c.wbnb, c.usdt, 3000);
  const transfer = ethers.id("Transfer(address,address,uint256)");
  const latest = await provider.getBlockNumber();
  const logs = await provider.getLogs({
    address: c.usdt,
    topics: [transfer, ethers.zeroPadValue(pool, 32), ethers.zeroPadValue(agent, 32)],
    fromBlock: latest - 10,
    toBlock: latest,
  });
  return BigInt(logs.at(-1)!.data);
}

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const usdtIn = await swappedUsdt(provider, agentAddress, deployedContracts);
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdt,
    data: erc20.encodeFunctionData("approve", [deployedContracts.v3_positions, usdtIn]),
  };
}
