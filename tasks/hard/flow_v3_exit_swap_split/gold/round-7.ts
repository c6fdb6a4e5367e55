import { ethers } from "ethers";

/** All the USDT the exit and the swap paid me: USDT Transfers from the pool to me since the collect (its WBNB Transfer). */
async function produced(provider: ethers.JsonRpcProvider, c: Record<string, string>, me: string) {
  const factory = new ethers.Contract(
    c.v3_factory,
    ["function getPool(address, address, uint24) view returns (address)"],
    provider,
  );
  const pool: string = await factory.getPool(c.wbnb, c.usdt, 500);
  const topics = (from: string, to: string) => [
    ethers.id("Transfer(address,address,uint256)"),
    ethers.zeroPadValue(from, 32),
    ethers.zeroPadValue(to, 32),
  ];
  const collect = (await provider.getLogs({ address: c.wbnb, topics: topics(pool, me), fromBlock: 0 })).at(
    -1,
  )!;
  const usdt = await provider.getLogs({
    address: c.usdt,
    topics: topics(pool, me),
    fromBlock: collect.blockNumber,
  });
  return usdt.reduce((sum, log) => sum + BigInt(log.data), 0n);
}

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const total = await produced(provider, deployedContracts, agentAddress);
  const rest = total - (total * BigInt("{{q}}")) / 100n;
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdt,
    data: erc20.encodeFunctionData("approve", [deployedContracts.usdt_vault, rest]),
  };
}
