import { ethers } from "ethers";

const PAIR_ABI = [
  "function token0() view returns (address)",
  "function balanceOf(address owner) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pair = new ethers.Contract(deployedContracts.pair_usdt_busd, PAIR_ABI, provider);
  const held: bigint = await pair.balanceOf(agentAddress);
  const liquidity = (held * BigInt("{{p}}")) / 100n; // {{p}} % of the LP in my wallet
  const [token0, reserves, supply] = await Promise.all([
    pair.token0(),
    pair.getReserves(),
    pair.totalSupply(),
  ]);
  const aIs0 = (token0 as string).toLowerCase() === deployedContracts.usdt.toLowerCase();
  const [reserveA, reserveB]: bigint[] = aIs0 ? [reserves[0], reserves[1]] : [reserves[1], reserves[0]];
  // What burning `liquidity` returns at the current reserves, less 5 % slippage.
  const minA = (((liquidity * reserveA) / supply) * 95n) / 100n;
  const minB = (((liquidity * reserveB) / supply) * 95n) / 100n;
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60); // chain time (the world's clock is not the wall clock)
  const router = new ethers.Interface([
    "function removeLiquidity(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB)",
  ]);
  return {
    to: deployedContracts.pancake_router,
    data: router.encodeFunctionData("removeLiquidity", [
      deployedContracts.usdt,
      deployedContracts.busd,
      liquidity,
      minA,
      minB,
      agentAddress,
      deadline,
    ]),
  };
}
