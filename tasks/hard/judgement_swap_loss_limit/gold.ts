import { ethers } from "ethers";

const ROUTER_ABI = [
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const router = new ethers.Contract(deployedContracts.pancake_router, ROUTER_ABI, provider);
  const amountIn = ethers.parseEther("{{x}}");
  const path = [deployedContracts.wbnb, deployedContracts.usdt];
  const amounts: bigint[] = await router.getAmountsOut(amountIn, path);
  const quote = amounts[amounts.length - 1];
  // The user's floor: x · ref · (1 − loss %), in USDT wei.
  const floor =
    (amountIn * ethers.parseUnits("{{ref}}", 18) * (100n - BigInt("{{loss}}"))) / 100n / 10n ** 18n;
  if (quote < floor)
    return {
      refuse: {
        reason: `PancakeSwap quotes ${ethers.formatUnits(quote, 18)} USDT, below your floor of ${ethers.formatUnits(floor, 18)} USDT: no swap can respect your {{loss}} % limit.`,
      },
    };
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.pancake_router,
    data: router.interface.encodeFunctionData("swapExactETHForTokens", [
      floor,
      path,
      agentAddress,
      BigInt(latest!.timestamp + 1200),
    ]),
    value: amountIn,
  };
}
