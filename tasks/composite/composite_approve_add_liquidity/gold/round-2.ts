import { ethers } from "ethers";

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
  // The slippage bound applies to the amounts offered (the prompt's rule), not to what the pool takes.
  const minA = (amountA * 95n) / 100n; // 5 % slippage
  const minB = (amountB * 95n) / 100n;
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
