import { ethers } from "ethers";

const MARKET_ABI = [
  "function debtOf(address) view returns (uint256)",
  "function collateralOf(address) view returns (uint256)",
  "function closeFactorBps() view returns (uint256)",
  "function liquidationBonusBps() view returns (uint256)",
  "function liquidate(address borrower, uint256 repayAmount) returns (uint256)",
];
const ORACLE_ABI = ["function getPrice(address asset) view returns (uint256)"];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const market = new ethers.Contract(deployedContracts.mm_wbtc_usdc, MARKET_ABI, provider);
  const oracle = new ethers.Contract(deployedContracts.mm_oracle, ORACLE_ABI, provider);
  const borrower = "{{borrower}}";
  const [debt, collateral, closeFactor, bonus, wbtcPrice, usdcPrice] = (await Promise.all([
    market.debtOf(borrower),
    market.collateralOf(borrower),
    market.closeFactorBps(),
    market.liquidationBonusBps(),
    oracle.getPrice(deployedContracts.wbtc),
    oracle.getPrice(deployedContracts.usdc),
  ])) as bigint[];
  // Cap 1: the close factor of the debt (read now; the debt of the mining block is a little higher,
  // so this stays accepted).
  const byCloseFactor = (debt * closeFactor) / 10_000n;
  // Cap 2: the largest r with seizeFor(r) = ⌊r·pUSDC·1e8·(1e4 + bonus) / (pWBTC·1e6·1e4)⌋ ≤ collateral.
  const num = usdcPrice * 10n ** 8n * (10_000n + bonus);
  const den = wbtcPrice * 10n ** 6n * 10_000n;
  const byCollateral = ((collateral + 1n) * den - 1n) / num;
  const repay = byCloseFactor < byCollateral ? byCloseFactor : byCollateral;
  void agentAddress;
  return {
    to: deployedContracts.mm_wbtc_usdc,
    data: market.interface.encodeFunctionData("liquidate", [borrower, repay]),
  };
}
