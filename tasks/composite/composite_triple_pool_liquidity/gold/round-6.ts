import { ethers } from "ethers";

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
  const tokenA = deployedContracts.usdt;
  const tokenB = deployedContracts.busd;
  // The USDT the BNB swap of the first round paid me.
  const received = await lastTransfer(
    provider,
    deployedContracts.usdt,
    deployedContracts.pair_wbnb_usdt,
    agentAddress,
  );
  const half = received / 2n;
  // The BUSD the swap of the third round paid me.
  const busdReceived = await lastTransfer(
    provider,
    deployedContracts.busd,
    deployedContracts.pair_usdt_busd,
    agentAddress,
  );
  const amountA = received - half; // the USDT I kept
  const amountB = busdReceived;
  // The slippage bound applies to the amounts offered (the prompt's rule), not to what the pool takes.
  const minA = (amountA * 50n) / 100n; // 50 % slippage
  const minB = (amountB * 50n) / 100n;
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60); // chain time (the world's clock is not the wall clock)
  const router = new ethers.Interface([
    "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)",
  ]);
  return {
    to: deployedContracts.pancake_router,
    data: router.encodeFunctionData("addLiquidity", [
      tokenA,
      tokenB,
      amountA,
      amountB,
      minA,
      minB,
      agentAddress,
      deadline,
    ]),
  };
}
