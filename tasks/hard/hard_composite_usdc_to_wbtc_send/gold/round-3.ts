import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The WBTC the swap delivered: its Transfer from the pair to the agent.
  const logs = await provider.getLogs({
    address: deployedContracts.wbtc,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(deployedContracts.pair_wbtc_usdc, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: 0,
  });
  const received = BigInt(logs.at(-1)!.data);
  const erc20 = new ethers.Interface(["function transfer(address to, uint256 amount) returns (bool)"]);
  return { to: deployedContracts.wbtc, data: erc20.encodeFunctionData("transfer", ["{{to}}", received]) };
}
