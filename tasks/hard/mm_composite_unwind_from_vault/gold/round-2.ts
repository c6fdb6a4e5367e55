import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // Exactly the USDT the vault paid out in round 1 (its Withdraw event).
  const vault = new ethers.Contract(
    deployedContracts.usdt_vault,
    [
      "event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)",
    ],
    provider,
  );
  const head = await provider.getBlockNumber();
  const events = await vault.queryFilter(
    vault.filters.Withdraw(null, null, agentAddress),
    Math.max(0, head - 20),
    head,
  );
  if (events.length === 0) throw new Error("no vault withdrawal found in the recent blocks");
  const usdt = (events[events.length - 1] as ethers.EventLog).args.assets as bigint;
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdt,
    data: erc20.encodeFunctionData("approve", [deployedContracts.pancake_router, usdt]),
  };
}
