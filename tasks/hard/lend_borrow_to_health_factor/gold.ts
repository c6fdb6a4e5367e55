import { ethers } from "ethers";

const MARKET_ABI = [
  "function borrowLimit(address account) view returns (uint256)",
  "function debtOf(address account) view returns (uint256)",
  "function borrow(uint256 amount)",
];
const ORACLE_ABI = ["function getPrice(address asset) view returns (uint256)"];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const market = new ethers.Contract(deployedContracts.lend_wbnb, MARKET_ABI, provider);
  const oracle = new ethers.Contract(deployedContracts.price_oracle, ORACLE_ABI, provider);
  const ONE = 10n ** 18n;
  const target = ethers.parseUnits("{{h}}", 18);
  const limit: bigint = await market.borrowLimit(agentAddress); // USD ×1e18
  const debt: bigint = await market.debtOf(agentAddress); // USDT wei
  const usdtPrice: bigint = await oracle.getPrice(deployedContracts.usdt);
  // healthFactor = floor(limit·1e18 / debtValue) ≥ target  ⇔  debtValue ≤ floor(limit·1e18 / target);
  // debtValue = floor(debt·price / 1e18) ≤ V  ⇔  debt < (V + 1)·1e18 / price.
  const maxValue = (limit * ONE) / target;
  const maxDebt = ((maxValue + 1n) * ONE + usdtPrice - 1n) / usdtPrice - 1n;
  return {
    to: deployedContracts.lend_wbnb,
    data: market.interface.encodeFunctionData("borrow", [maxDebt - debt]),
  };
}
