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
  const npm = new ethers.Contract(deployedContracts.v3_positions, NPM_ABI, provider);
  const latest = await provider.getBlock("latest");
  // token0 is the lower address: USDT (0x55…) before BUSD (0xe9…).
  const params = {
    token0: deployedContracts.usdt,
    token1: deployedContracts.busd,
    fee: 100,
    tickLower: Number("{{tl}}"),
    tickUpper: Number("{{tu}}"),
    amount0Desired: ethers.parseUnits("{{a}}", 18),
    amount1Desired: ethers.parseUnits("{{a}}", 18),
    amount0Min: 0n,
    amount1Min: 0n,
    recipient: agentAddress,
    deadline: BigInt(latest!.timestamp + 1200),
  };
  // What the mint takes at the current price: one side in full, the other in proportion.
  const sim = await npm.mint.staticCall(params, { from: agentAddress });
  const bps = ethers.parseUnits("{{s}}", 2);
  params.amount0Min = (sim.amount0 * (10_000n - bps)) / 10_000n;
  params.amount1Min = (sim.amount1 * (10_000n - bps)) / 10_000n;
  return { to: deployedContracts.v3_positions, data: npm.interface.encodeFunctionData("mint", [params]) };
}
