import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const pair = new ethers.Contract(
    deployedContracts.pair_usdc_usdt,
    [
      "function token0() view returns (address)",
      "function getReserves() view returns (uint112, uint112, uint32)",
    ],
    provider,
  );
  const [token0, [r0, r1]] = await Promise.all([pair.token0(), pair.getReserves()]);
  const usdcIs0 = token0.toLowerCase() === deployedContracts.usdc.toLowerCase();
  const [rUsdc, rUsdt]: bigint[] = usdcIs0 ? [r0, r1] : [r1, r0];
  const usdc = ethers.parseUnits("{{x}}", 6);
  // Raw reserves carry the decimals: USDC units × (USDT wei per USDC unit), as router.quote does.
  const usdt = (usdc * rUsdt) / rUsdc;
  const sPpm = ethers.parseUnits("{{s}}", 4);
  const min = (v: bigint) => (v * (1_000_000n - sPpm)) / 1_000_000n;
  const router = new ethers.Interface([
    "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)",
  ]);
  const latest = await provider.getBlock("latest");
  return {
    to: deployedContracts.pancake_router,
    data: router.encodeFunctionData("addLiquidity", [
      deployedContracts.usdc,
      deployedContracts.usdt,
      usdc,
      usdt,
      min(usdc),
      min(usdt),
      agentAddress,
      BigInt(latest!.timestamp + 1200),
    ]),
  };
}
