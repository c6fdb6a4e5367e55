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
  const amountBNB = ethers.parseEther("{{n_bnb}}");
  const amountUSDT = ethers.parseUnits("{{n_usdt}}", 18);
  // The router keeps the pool ratio: it takes all of one side and the matching amount of the other.
  const pair = new ethers.Contract(deployedContracts.pair_wbnb_usdt, PAIR_ABI, provider);
  const [token0, reserves] = await Promise.all([pair.token0(), pair.getReserves()]);
  const usdtIs0 = (token0 as string).toLowerCase() === deployedContracts.usdt.toLowerCase();
  const [reserveUSDT, reserveWBNB]: bigint[] = usdtIs0
    ? [reserves[0], reserves[1]]
    : [reserves[1], reserves[0]];
  const usdtOptimal = (amountBNB * reserveUSDT) / reserveWBNB;
  const [usedBNB, usedUSDT] =
    usdtOptimal <= amountUSDT
      ? [amountBNB, usdtOptimal]
      : [(amountUSDT * reserveWBNB) / reserveUSDT, amountUSDT];
  const minBNB = (usedBNB * 50n) / 100n; // 50 % slippage
  const minUSDT = (usedUSDT * 50n) / 100n;
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60); // chain time (the world's clock is not the wall clock)
  const router = new ethers.Interface([
    "function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)",
  ]);
  return {
    to: deployedContracts.pancake_router,
    data: router.encodeFunctionData("addLiquidityETH", [
      deployedContracts.usdt,
      amountUSDT,
      minUSDT,
      minBNB,
      agentAddress,
      deadline,
    ]),
    value: amountBNB,
  };
}
