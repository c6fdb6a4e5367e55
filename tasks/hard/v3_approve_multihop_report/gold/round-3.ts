import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const c = deployedContracts;
  const factory = new ethers.Contract(
    c.v3_factory,
    ["function getPool(address, address, uint24) view returns (address)"],
    provider,
  );
  const pool: string = await factory.getPool(c.wbnb, c.usdt, 500);
  const latest = await provider.getBlockNumber();
  // The swap's last hop pays the agent from the WBNB/USDT pool: that Transfer is what was received.
  const logs = await provider.getLogs({
    address: c.usdt,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(pool, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: latest - 5,
    toBlock: latest,
  });
  return { answer: { usdt_received_wei: BigInt(logs.at(-1)!.data).toString() } };
}
