import { ethers } from "ethers";

const ROUTER_ABI = [
  "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Interface(ROUTER_ABI);
  const amount = ethers.parseUnits("{{a}}", 18); // same amount of each stablecoin
  const min = (amount * 95n) / 100n; // 5 % slippage
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 20 * 60);
  return {
    to: deployedContracts.pancake_router,
    data: router.encodeFunctionData("addLiquidity", [
      deployedContracts.usdt,
      deployedContracts.busd,
      amount,
      amount,
      min,
      min,
      agentAddress,
      deadline,
    ]),
  };
}
