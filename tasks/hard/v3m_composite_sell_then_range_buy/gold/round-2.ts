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
const ERC20_ABI = [
  "function decimals() view returns (uint8)",
  "function balanceOf(address) view returns (uint256)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pool = new ethers.Contract(deployedContracts.v3pool_wbtc_usdc, POOL_ABI, provider);
  const npm = new ethers.Contract(deployedContracts.v3_positions, NPM_ABI, provider);
  const usdcToken = new ethers.Contract(deployedContracts.usdc, ERC20_ABI, provider);
  // The sale was the last block: what it paid = my USDC now − my USDC the block before.
  const head = await provider.getBlockNumber();
  const now: bigint = await usdcToken.balanceOf(agentAddress, { blockTag: head });
  const before: bigint = await usdcToken.balanceOf(agentAddress, { blockTag: head - 1 });
  const proceeds = now - before;
  const [token0, token1, fee, spacing] = await Promise.all([
    pool.token0(),
    pool.token1(),
    pool.fee(),
    pool.tickSpacing(),
  ]);
  const wbtc = deployedContracts.wbtc;
  const decimals = async (t: string) => Number(await new ethers.Contract(t, ERC20_ABI, provider).decimals());
  const [dBtc, dUsd] = [await decimals(wbtc), await decimals(deployedContracts.usdc)];
  const wbtcIsToken0 = token0.toLowerCase() === wbtc.toLowerCase();
  const raw = (usdcPerWbtc: number) => {
    const usdcUnitsPerWbtcUnit = (usdcPerWbtc * 10 ** dUsd) / 10 ** dBtc;
    return wbtcIsToken0 ? usdcUnitsPerWbtcUnit : 1 / usdcUnitsPerWbtcUnit;
  };
  const tickOf = (usdcPerWbtc: number) => Math.floor(Math.log(raw(usdcPerWbtc)) / Math.log(1.0001));
  const ticks = [tickOf(Number("{{lo}}")), tickOf(Number("{{hi}}"))];
  const s = Number(spacing);
  const latest = await provider.getBlock("latest");
  const params = {
    token0,
    token1,
    fee,
    tickLower: Math.floor(Math.min(...ticks) / s) * s,
    tickUpper: Math.ceil(Math.max(...ticks) / s) * s,
    // USDC only: it is token0 or token1, and the range is on the side where the position holds it.
    amount0Desired: wbtcIsToken0 ? 0n : proceeds,
    amount1Desired: wbtcIsToken0 ? proceeds : 0n,
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
