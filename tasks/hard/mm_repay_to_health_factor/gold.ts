import { ethers } from "ethers";

const MARKET_ABI = [
  "function debtOf(address) view returns (uint256)",
  "function collateralValue(address) view returns (uint256)",
  "function liquidationThresholdBps() view returns (uint256)",
  "function ratePerSecond() view returns (uint256)",
  "function repay(uint256 amount, address onBehalfOf) returns (uint256)",
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
  const h = ethers.parseEther("{{h}}");
  const [debt, value, lt, rate, usdcPrice] = (await Promise.all([
    market.debtOf(agentAddress),
    market.collateralValue(agentAddress),
    market.liquidationThresholdBps(),
    market.ratePerSecond(),
    oracle.getPrice(deployedContracts.usdc),
  ])) as bigint[];
  // Largest debt (USDC units) whose value keeps healthFactor ≥ h, with the market's roundings.
  const maxDebt = (((((value * lt) / 10_000n) * 10n ** 18n) / h) * 10n ** 6n) / usdcPrice;
  // The debt keeps growing until the repayment mines: pay for a minute of interest on top, plus a
  // margin of 0.02 % of the repayment (the task tolerates 0.1 %).
  const debtAtMining = debt + (debt * rate * 60n) / 10n ** 18n + 1n;
  const needed = debtAtMining - maxDebt;
  const amount = needed + needed / 5000n;
  return {
    to: deployedContracts.mm_wbtc_usdc,
    data: market.interface.encodeFunctionData("repay", [amount, agentAddress]),
  };
}
