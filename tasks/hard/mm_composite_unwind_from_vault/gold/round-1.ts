import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const market = new ethers.Contract(
    deployedContracts.mm_wbtc_usdc,
    ["function debtOf(address) view returns (uint256)"],
    provider,
  );
  const router = new ethers.Contract(
    deployedContracts.pancake_router,
    ["function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)"],
    provider,
  );
  // The debt grows every second until the repayment mines (round 5): 0.10 USDC covers it by far and
  // stays within the 1 USDC the user allows to be left over.
  const debt: bigint = await market.debtOf(agentAddress);
  const usdcNeeded = debt + 100_000n;
  const [usdtIn] = (await router.getAmountsIn(usdcNeeded, [
    deployedContracts.usdt,
    deployedContracts.usdc,
  ])) as bigint[];
  const vault = new ethers.Interface([
    "function withdraw(uint256 assets, address receiver, address owner) returns (uint256)",
  ]);
  return {
    to: deployedContracts.usdt_vault,
    data: vault.encodeFunctionData("withdraw", [usdtIn, agentAddress, agentAddress]),
  };
}
