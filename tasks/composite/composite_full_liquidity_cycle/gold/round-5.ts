import { ethers } from "ethers";

const PAIR_ABI = [
  "function token0() view returns (address)",
  "function balanceOf(address owner) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
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
  const pair = new ethers.Contract(deployedContracts.pair_wbnb_usdt, PAIR_ABI, provider);
  // The LP the deposit of the first round minted to me.
  const liquidity = await lastTransfer(
    provider,
    deployedContracts.pair_wbnb_usdt,
    ethers.ZeroAddress,
    agentAddress,
  );
  const [token0, reserves, supply] = await Promise.all([
    pair.token0(),
    pair.getReserves(),
    pair.totalSupply(),
  ]);
  const aIs0 = (token0 as string).toLowerCase() === deployedContracts.usdt.toLowerCase();
  const [reserveA, reserveB]: bigint[] = aIs0 ? [reserves[0], reserves[1]] : [reserves[1], reserves[0]];
  // What burning `liquidity` returns at the current reserves, less 50 % slippage.
  const minA = (((liquidity * reserveA) / supply) * 50n) / 100n;
  const minB = (((liquidity * reserveB) / supply) * 50n) / 100n;
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60); // chain time (the world's clock is not the wall clock)
  const router = new ethers.Interface([
    "function removeLiquidityETH(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) returns (uint256 amountToken, uint256 amountETH)",
  ]);
  // tokenA is USDT, tokenB the WBNB side, paid out as native BNB.
  return {
    to: deployedContracts.pancake_router,
    data: router.encodeFunctionData("removeLiquidityETH", [
      deployedContracts.usdt,
      liquidity,
      minA,
      minB,
      agentAddress,
      deadline,
    ]),
  };
}
