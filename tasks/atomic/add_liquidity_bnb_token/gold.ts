import { ethers } from "ethers";

const ROUTER_ABI = [
  "function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Interface(ROUTER_ABI);
  const amountBNB = ethers.parseEther("{{x}}");
  const amountUSDT = ethers.parseUnits("{{t}}", 18);
  // {{s}} % slippage in basis points; the router uses at most the desired amounts.
  const keepBps = 10_000n - BigInt(Math.round(Number("{{s}}") * 100));
  const minUSDT = (amountUSDT * keepBps) / 10_000n;
  const minBNB = (amountBNB * keepBps) / 10_000n;
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60);
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
