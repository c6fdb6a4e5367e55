import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    [
      "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
      "function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
    ],
    provider,
  );
  const fot = new ethers.Contract(
    deployedContracts.fot,
    ["function feeBps() view returns (uint256)"],
    provider,
  );
  const amountIn = ethers.parseUnits("{{x}}", 18);
  const feeBps: bigint = await fot.feeBps();
  // Only the first hop is charged: the pair receives amountIn less the fee, rounded as the token does.
  const reachesPool = amountIn - (amountIn * feeBps) / 10_000n;
  const path = [deployedContracts.fot, deployedContracts.wbnb, deployedContracts.usdt];
  const amounts: bigint[] = await router.getAmountsOut(reachesPool, path);
  const sPpm = ethers.parseUnits("{{s}}", 4);
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapExactTokensForTokensSupportingFeeOnTransferTokens", [
      amountIn,
      (amounts.at(-1)! * (1_000_000n - sPpm)) / 1_000_000n,
      path,
      agentAddress,
      BigInt(latest!.timestamp + 1200),
    ]),
  };
}
