import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const token = new ethers.Contract(
    deployedContracts.qsteth,
    [
      "function getSharesByPooled(uint256) view returns (uint256)",
      "function getPooledByShares(uint256) view returns (uint256)",
    ],
    provider,
  );
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    [
      "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[])",
      "function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
    ],
    provider,
  );
  const x = ethers.parseUnits("{{x}}", 18);
  // The pair is credited the value of ⌊x·shares/pooled⌋ shares, not x: the standard exact-in swap
  // computes its output for x and fails the pair's K check, so quote what arrives and use the fee-tolerant swap.
  const credited: bigint = await token.getPooledByShares(await token.getSharesByPooled(x));
  const path = [deployedContracts.qsteth, deployedContracts.usdt];
  const quote: bigint = (await router.getAmountsOut(credited, path))[1];
  const sPpm = BigInt(Math.round(Number("{{s}}") * 10_000));
  const deadline = (await provider.getBlock("latest"))!.timestamp + 600;
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapExactTokensForTokensSupportingFeeOnTransferTokens", [
      x,
      (quote * (1_000_000n - sPpm)) / 1_000_000n,
      path,
      agentAddress,
      deadline,
    ]),
  };
}
