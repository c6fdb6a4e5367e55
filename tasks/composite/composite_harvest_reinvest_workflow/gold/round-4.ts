import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The CAKE the harvest paid me (H): the last Transfer of CAKE from simple_reward_pool to my address, in the recent blocks.
  const head = await provider.getBlockNumber();
  const logs = await provider.getLogs({
    address: deployedContracts.cake,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(deployedContracts.simple_reward_pool, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: Math.max(0, head - 20),
    toBlock: head,
  });
  if (logs.length === 0) throw new Error("no CAKE from simple_reward_pool found in the recent blocks");
  const received = BigInt(logs[logs.length - 1].data);
  const rest = received - ethers.parseUnits("{{y}}", 18); // {{y}} of the harvest went to the swap
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.cake,
    data: erc20.encodeFunctionData("approve", [deployedContracts.simple_staking, rest]),
  };
}
