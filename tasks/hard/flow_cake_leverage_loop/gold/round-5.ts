import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const market = new ethers.Contract(
    deployedContracts.lend_cake,
    [
      "function borrowLimit(address) view returns (uint256)",
      "function debtOf(address) view returns (uint256)",
      "function borrow(uint256 amount)",
    ],
    provider,
  );
  const oracle = new ethers.Contract(
    deployedContracts.price_oracle,
    ["function getPrice(address) view returns (uint256)"],
    provider,
  );
  const ONE = 10n ** 18n;
  const limit: bigint = await market.borrowLimit(agentAddress);
  const debt: bigint = await market.debtOf(agentAddress);
  const price: bigint = await oracle.getPrice(deployedContracts.usdt);
  // healthFactor ≥ h ⇔ debtValue ≤ ⌊limit·1e18/h⌋; debtValue = ⌊debt·price/1e18⌋ ⇒ debt < (V + 1)·1e18/price.
  const maxValue = (limit * ONE) / ethers.parseUnits("{{h}}", 18);
  const maxDebt = ((maxValue + 1n) * ONE + price - 1n) / price - 1n;
  return {
    to: deployedContracts.lend_cake,
    data: market.interface.encodeFunctionData("borrow", [maxDebt - debt]),
  };
}
