import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const amountBNB = ethers.parseEther("{{n_bnb}}");
  const amountUSDT = ethers.parseUnits("{{n_usdt}}", 18);
  // The slippage bound applies to the amounts offered (the prompt's rule), not to what the pool takes.
  const minBNB = (amountBNB * 50n) / 100n; // 50 % slippage
  const minUSDT = (amountUSDT * 50n) / 100n;
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
