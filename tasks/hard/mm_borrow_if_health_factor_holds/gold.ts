import { ethers } from "ethers";

const MARKET_ABI = [
  "function debtOf(address) view returns (uint256)",
  "function collateralValue(address) view returns (uint256)",
  "function liquidationThresholdBps() view returns (uint256)",
  "function borrow(uint256 amount)",
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
  const amount = ethers.parseUnits("{{x}}", 6);
  const [debt, value, lt, usdcPrice] = (await Promise.all([
    market.debtOf(agentAddress),
    market.collateralValue(agentAddress),
    market.liquidationThresholdBps(),
    oracle.getPrice(deployedContracts.usdc),
  ])) as bigint[];
  // The market's healthFactor after the borrow: the liquidation threshold (not the LTV) over the
  // debt value with its accrued interest, USDC at the oracle's price, each step rounded down.
  const debtValue = ((debt + amount) * usdcPrice) / 10n ** 6n;
  const hf = (((value * lt) / 10_000n) * 10n ** 18n) / debtValue;
  if (hf < ethers.parseEther("1.5"))
    return { refuse: { reason: `health factor after borrowing would be ${ethers.formatEther(hf)} < 1.5` } };
  return {
    to: deployedContracts.mm_wbtc_usdc,
    data: market.interface.encodeFunctionData("borrow", [amount]),
  };
}
