import { ethers } from "ethers";

const ROUTER_ABI = [
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
];

const TRANSFER_EVENT = ["event Transfer(address indexed from, address indexed to, uint256 value)"];

// What an earlier round moved: the latest Transfer(from → to) of `token` in the last 20 blocks.
async function lastTransfer(
  provider: ethers.JsonRpcProvider,
  token: string,
  from: string,
  to: string,
): Promise<bigint> {
  const erc20 = new ethers.Contract(token, TRANSFER_EVENT, provider);
  const head = await provider.getBlockNumber();
  const logs = await erc20.queryFilter(erc20.filters.Transfer(from, to), Math.max(0, head - 20), head);
  const last = logs.at(-1) as ethers.EventLog | undefined;
  if (!last) throw new Error(`no Transfer ${from} → ${to} of ${token} in the last 20 blocks`);
  return last.args.value as bigint;
}

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  // The USDT the BNB swap of the first round paid me; half of it goes to BUSD.
  const received = await lastTransfer(
    provider,
    deployedContracts.usdt,
    deployedContracts.pair_wbnb_usdt,
    agentAddress,
  );
  const amountIn = received / 2n;
  const router = new ethers.Contract(deployedContracts.pancake_router, ROUTER_ABI, provider);
  const path = [deployedContracts.usdt, deployedContracts.busd];
  const amounts: bigint[] = await router.getAmountsOut(amountIn, path);
  const amountOutMin = (amounts[amounts.length - 1] * 50n) / 100n; // 50 % slippage
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60); // chain time (the world's clock is not the wall clock)
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
