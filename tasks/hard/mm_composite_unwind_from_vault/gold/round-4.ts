import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The USDC the swap paid the agent: the last Transfer(pair → agent) of USDC.
  const usdc = new ethers.Contract(
    deployedContracts.usdc,
    ["event Transfer(address indexed from, address indexed to, uint256 value)"],
    provider,
  );
  const head = await provider.getBlockNumber();
  const events = await usdc.queryFilter(
    usdc.filters.Transfer(deployedContracts.pair_usdc_usdt, agentAddress),
    Math.max(0, head - 20),
    head,
  );
  if (events.length === 0) throw new Error("no swap output found in the recent blocks");
  const received = (events[events.length - 1] as ethers.EventLog).args.value as bigint;
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdc,
    data: erc20.encodeFunctionData("approve", [deployedContracts.mm_wbtc_usdc, received]),
  };
}
