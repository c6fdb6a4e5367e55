import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The collateral the market returned: its last Withdraw(account = me) event in the recent blocks.
  const market = new ethers.Contract(
    deployedContracts.lend_wbnb,
    ["event Withdraw(address indexed account, address indexed to, uint256 amount)"],
    provider,
  );
  const head = await provider.getBlockNumber();
  const events = await market.queryFilter(
    market.filters.Withdraw(agentAddress),
    Math.max(0, head - 20),
    head,
  );
  if (events.length === 0) throw new Error("no collateral withdrawal found in the recent blocks");
  const amount = (events[events.length - 1] as ethers.EventLog).args.amount as bigint;
  const wbnb = new ethers.Interface(["function withdraw(uint256 wad)"]);
  return { to: deployedContracts.wbnb, data: wbnb.encodeFunctionData("withdraw", [amount]) };
}
