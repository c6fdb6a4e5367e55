import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
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
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    [
      "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
      "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
    ],
    provider,
  );
  const path = [deployedContracts.usdt, deployedContracts.usdc];
  const amounts = (await router.getAmountsOut(usdt, path)) as bigint[];
  const minOut = (amounts[1]! * 99n) / 100n;
  const deadline = Math.floor(Date.now() / 1000) + 1200;
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapExactTokensForTokens", [
      usdt,
      minOut,
      path,
      agentAddress,
      deadline,
    ]),
  };
}
