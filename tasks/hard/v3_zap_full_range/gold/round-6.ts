import { ethers } from "ethers";

const NPM_ABI = [
  "function mint((address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint256 amount0Desired, uint256 amount1Desired, uint256 amount0Min, uint256 amount1Min, address recipient, uint256 deadline) params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const c = deployedContracts;
  // The USDT round 3 received: the allowance granted in round 5 is exactly that amount.
  const usdt = new ethers.Contract(
    c.usdt,
    ["function allowance(address, address) view returns (uint256)"],
    provider,
  );
  const usdtIn: bigint = await usdt.allowance(agentAddress, c.v3_positions);
  const latest = await provider.getBlock("latest");
  // token0 is the lower address: USDT (0x55…) before WBNB (0xbb…).
  const params = {
    token0: c.usdt,
    token1: c.wbnb,
    fee: 3000,
    tickLower: -887220,
    tickUpper: 887220,
    amount0Desired: usdtIn,
    amount1Desired: ethers.parseUnits("{{h}}", 18),
    amount0Min: 0n,
    amount1Min: 0n,
    recipient: agentAddress,
    deadline: BigInt(latest!.timestamp + 1200),
  };
  const npm = new ethers.Contract(c.v3_positions, NPM_ABI, provider);
  // What the mint takes at the current price (one side is used in full, the other in proportion).
  const sim = await npm.mint.staticCall(params, { from: agentAddress });
  const bps = ethers.parseUnits("{{s}}", 2);
  params.amount0Min = (sim.amount0 * (10_000n - bps)) / 10_000n;
  params.amount1Min = (sim.amount1 * (10_000n - bps)) / 10_000n;
  return { to: c.v3_positions, data: npm.interface.encodeFunctionData("mint", [params]) };
}
