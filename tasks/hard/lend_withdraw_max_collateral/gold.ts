import { ethers } from "ethers";

const MARKET_ABI = [
  "function collateralOf(address account) view returns (uint256)",
  "function debtValue(address account) view returns (uint256)",
  "function collateralFactorBps() view returns (uint256)",
  "function withdraw(uint256 amount, address to) returns (uint256)",
];
const ORACLE_ABI = ["function getPrice(address asset) view returns (uint256)"];

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

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
  const collateral: bigint = await market.collateralOf(agentAddress);
  const debtValue: bigint = await market.debtValue(agentAddress);
  const factor: bigint = await market.collateralFactorBps();
  const price: bigint = await oracle.getPrice(deployedContracts.wbnb);
  // Invert each floor of healthFactor = ⌊⌊⌊C·p/1e18⌋·f/1e4⌋·1e18/debtValue⌋ ≥ target, smallest C first.
  const limit = ceilDiv(target * debtValue, ONE);
  const value = ceilDiv(limit * 10000n, factor);
  const keep = ceilDiv(value * ONE, price);
  return {
    to: deployedContracts.lend_wbnb,
    data: market.interface.encodeFunctionData("withdraw", [collateral - keep, agentAddress]),
  };
}
