import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const factory = new ethers.Contract(
    deployedContracts.v3_factory,
    ["function getPool(address, address, uint24) view returns (address)"],
    provider,
  );
  const pool: string = await factory.getPool(deployedContracts.wbnb, deployedContracts.usdt, 500);
  // The collect's WBNB payment: the last WBNB Transfer from the pool to me.
  const logs = await provider.getLogs({
    address: deployedContracts.wbnb,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(pool, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: 0,
  });
  const collected = BigInt(logs.at(-1)!.data);
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.wbnb,
    data: erc20.encodeFunctionData("approve", [deployedContracts.v3_router, collected]),
  };
}
