import { ethers } from "ethers";

const NPM_ABI = [
  "function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)",
  "function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)",
  "function decreaseLiquidity((uint256 tokenId, uint128 liquidity, uint256 amount0Min, uint256 amount1Min, uint256 deadline) params) payable returns (uint256 amount0, uint256 amount1)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const npm = new ethers.Contract(deployedContracts.v3_positions, NPM_ABI, provider);
  const tokenId: bigint = await npm.tokenOfOwnerByIndex(agentAddress, 0);
  const position = await npm.positions(tokenId);
  const latest = await provider.getBlock("latest");
  const params = {
    tokenId,
    liquidity: position.liquidity as bigint,
    amount0Min: 0n,
    amount1Min: 0n,
    deadline: BigInt(latest!.timestamp + 1200),
  };
  const [amount0, amount1]: [bigint, bigint] = await npm.decreaseLiquidity.staticCall(params, {
    from: agentAddress,
  });
  const bps = ethers.parseUnits("{{s}}", 2);
  params.amount0Min = (amount0 * (10_000n - bps)) / 10_000n;
  params.amount1Min = (amount1 * (10_000n - bps)) / 10_000n;
  return {
    to: deployedContracts.v3_positions,
    data: npm.interface.encodeFunctionData("decreaseLiquidity", [params]),
  };
}
