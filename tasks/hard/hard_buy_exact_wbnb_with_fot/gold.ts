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
      "function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[])",
      "function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
    ],
    provider,
  );
  const fot = new ethers.Contract(
    deployedContracts.fot,
    ["function feeBps() view returns (uint256)"],
    provider,
  );
  const path = [deployedContracts.fot, deployedContracts.wbnb];
  const out = ethers.parseUnits("{{y}}", 18);
  // What the pair must receive for `out`, then the least gross amount that still delivers it after the
  // transfer fee (fee = ⌊a·bps/10000⌋). swapTokensForExactTokens would send only the net amount and revert (K).
  const net: bigint = (await router.getAmountsIn(out, path))[0];
  const bps: bigint = await fot.feeBps();
  let gross = (net * 10_000n + (10_000n - bps) - 1n) / (10_000n - bps);
  while (gross - 1n - ((gross - 1n) * bps) / 10_000n >= net) gross -= 1n;
  const deadline = (await provider.getBlock("latest"))!.timestamp + 600;
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapExactTokensForTokensSupportingFeeOnTransferTokens", [
      gross,
      out,
      path,
      agentAddress,
      deadline,
    ]),
  };
}
