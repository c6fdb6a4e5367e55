import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    ["function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)"],
    provider,
  );
  // The swap has not run yet and nothing else moves this pool: its output is the quote.
  const amounts: bigint[] = await router.getAmountsOut(ethers.parseUnits("{{x}}", 8), [
    deployedContracts.wbtc,
    deployedContracts.usdc,
  ]);
  const erc20 = new ethers.Interface(["function approve(address spender, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdc,
    data: erc20.encodeFunctionData("approve", [deployedContracts.pancake_router, amounts[1]]),
  };
}
