import { ethers } from "ethers";

const PAIR_ABI = [
  "function balanceOf(address owner) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "function token0() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
];
const ROUTER_ABI = [
  "function removeLiquidity(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pair = new ethers.Contract(deployedContracts.pair_usdt_busd, PAIR_ABI, provider);
  const [held, supply, token0, reserves] = await Promise.all([
    pair.balanceOf(agentAddress),
    pair.totalSupply(),
    pair.token0(),
    pair.getReserves(),
  ]);
  const liquidity = (held * BigInt("{{p}}")) / 100n; // {{p}} % of the LP in the wallet
  const usdtIs0 = token0.toLowerCase() === deployedContracts.usdt.toLowerCase();
  const [reserveUSDT, reserveBUSD] = usdtIs0 ? [reserves[0], reserves[1]] : [reserves[1], reserves[0]];
  const minUSDT = (((liquidity * reserveUSDT) / supply) * 95n) / 100n; // 5 % slippage
  const minBUSD = (((liquidity * reserveBUSD) / supply) * 95n) / 100n;
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60);
  const router = new ethers.Interface(ROUTER_ABI);
  return {
    to: deployedContracts.pancake_router,
    data: router.encodeFunctionData("removeLiquidity", [
      deployedContracts.usdt,
      deployedContracts.busd,
      liquidity,
      minUSDT,
      minBUSD,
      agentAddress,
      deadline,
    ]),
  };
}
