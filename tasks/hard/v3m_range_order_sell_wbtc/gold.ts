import { ethers } from "ethers";

const NPM_ABI = [
  "function mint((address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint256 amount0Desired, uint256 amount1Desired, uint256 amount0Min, uint256 amount1Min, address recipient, uint256 deadline) params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
];
const POOL_ABI = [
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
];
const ERC20_ABI = ["function decimals() view returns (uint8)"];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pool = new ethers.Contract(deployedContracts.v3pool_wbtc_usdc, POOL_ABI, provider);
  const npm = new ethers.Contract(deployedContracts.v3_positions, NPM_ABI, provider);
  const [token0, token1, fee, spacing] = await Promise.all([
    pool.token0(),
    pool.token1(),
    pool.fee(),
    pool.tickSpacing(),
  ]);
  const wbtc = deployedContracts.wbtc;
  const usdc = deployedContracts.usdc;
  const decimals = async (t: string) => Number(await new ethers.Contract(t, ERC20_ABI, provider).decimals());
  const [dBtc, dUsd] = [await decimals(wbtc), await decimals(usdc)];
  const wbtcIsToken0 = token0.toLowerCase() === wbtc.toLowerCase();
  // Raw price = token1 units per token0 unit; the human price is USDC per WBTC.
  const raw = (usdcPerWbtc: number) => {
    const usdcUnitsPerWbtcUnit = (usdcPerWbtc * 10 ** dUsd) / 10 ** dBtc;
    return wbtcIsToken0 ? usdcUnitsPerWbtcUnit : 1 / usdcUnitsPerWbtcUnit;
  };
  const tickOf = (usdcPerWbtc: number) => Math.floor(Math.log(raw(usdcPerWbtc)) / Math.log(1.0001));
  const ticks = [tickOf(Number("{{lo}}")), tickOf(Number("{{hi}}"))];
  const s = Number(spacing);
  const tickLower = Math.floor(Math.min(...ticks) / s) * s;
  const tickUpper = Math.ceil(Math.max(...ticks) / s) * s;
  // Only WBTC goes in: whichever side of the pool it is on, the other desired amount is 0 (the
  // range is on the side of the price where the position holds WBTC only).
  const wbtcAmount = ethers.parseUnits("{{x}}", dBtc);
  const latest = await provider.getBlock("latest");
  const params = {
    token0,
    token1,
    fee,
    tickLower,
    tickUpper,
    amount0Desired: wbtcIsToken0 ? wbtcAmount : 0n,
    amount1Desired: wbtcIsToken0 ? 0n : wbtcAmount,
    amount0Min: 0n,
    amount1Min: 0n,
    recipient: agentAddress,
    deadline: BigInt(latest!.timestamp + 1200),
  };
  const sim = await npm.mint.staticCall(params, { from: agentAddress });
  const bps = ethers.parseUnits("{{s}}", 2);
  params.amount0Min = (sim.amount0 * (10_000n - bps)) / 10_000n;
  params.amount1Min = (sim.amount1 * (10_000n - bps)) / 10_000n;
  return { to: deployedContracts.v3_positions, data: npm.interface.encodeFunctionData("mint", [params]) };
}
