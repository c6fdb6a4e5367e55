import { ethers } from "ethers";

const ROUTER_ABI = [
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(deployedContracts.pancake_router, ROUTER_ABI, provider);
  // The CAKE my USDT → CAKE swap paid me: the last Transfer of CAKE from pair_cake_usdt to my address, in the recent blocks.
  const head = await provider.getBlockNumber();
  const logs = await provider.getLogs({
    address: deployedContracts.cake,
    topics: [
      ethers.id("Transfer(address,address,uint256)"),
      ethers.zeroPadValue(deployedContracts.pair_cake_usdt, 32),
      ethers.zeroPadValue(agentAddress, 32),
    ],
    fromBlock: Math.max(0, head - 20),
    toBlock: head,
  });
  if (logs.length === 0) throw new Error("no CAKE from pair_cake_usdt found in the recent blocks");
  const received = BigInt(logs[logs.length - 1].data);
  const amountIn = received;
  const path = [deployedContracts.cake, deployedContracts.busd];
  const amounts: bigint[] = await router.getAmountsOut(amountIn, path);
  const amountOutMin = (amounts[amounts.length - 1] * 50n) / 100n; // 50 % slippage
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60); // chain time, not the wall clock
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapExactTokensForTokens", [
      amountIn,
      amountOutMin,
      path,
      agentAddress,
      deadline,
    ]),
  };
}
