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
  const tokenA = deployedContracts.usdt;
  const tokenB = deployedContracts.busd;
  const amountA = ethers.parseUnits("{{a}}", 18);
  const amountB = ethers.parseUnits("{{a}}", 18);
  // The router keeps the pool ratio: it takes all of one side and the matching amount of the other.
  const pair = new ethers.Contract(deployedContracts.pair_usdt_busd, PAIR_ABI, provider);
  const [token0, reserves] = await Promise.all([pair.token0(), pair.getReserves()]);
  const aIs0 = (token0 as string).toLowerCase() === tokenA.toLowerCase();
  const [reserveA, reserveB]: bigint[] = aIs0 ? [reserves[0], reserves[1]] : [reserves[1], reserves[0]];
  const bOptimal = (amountA * reserveB) / reserveA;
  const [usedA, usedB] =
    bOptimal <= amountB ? [amountA, bOptimal] : [(amountB * reserveA) / reserveB, amountB];
  const minA = (usedA * 50n) / 100n; // 50 % slippage
  const minB = (usedB * 50n) / 100n;
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
