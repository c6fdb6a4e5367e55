import { ethers } from "ethers";

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const market = new ethers.Contract(
    deployedContracts.lend_wbnb,
    [
      "function accountData(address) view returns (uint256 collateralValue, uint256 debtValue, uint256 borrowLimit, uint256 healthFactor)",
      "function collateralOf(address) view returns (uint256)",
      "function collateralFactorBps() view returns (uint256)",
      "function withdraw(uint256 amount, address to) returns (uint256)",
    ],
    provider,
  );
  const oracle = new ethers.Contract(
    deployedContracts.price_oracle,
    ["function getPrice(address) view returns (uint256)"],
    provider,
  );
  const ONE = 10n ** 18n;
  const H = ethers.parseUnits("{{hf}}", 18);
  const [, debtValue, , healthFactor] = await market.accountData(agentAddress);
  if (healthFactor < H)
    return {
      refuse: {
        reason: `health factor after the repayment is ${ethers.formatUnits(healthFactor, 18)}, below {{hf}}: no collateral withdrawn`,
      },
    };
  // healthFactor = ⌊limit·1e18/debtValue⌋ ≥ H ⇔ limit ≥ ⌈H·debtValue/1e18⌉; limit = ⌊value·cf/1e4⌋;
  // value = ⌊collateral·price/1e18⌋: the least collateral that keeps H, each step rounded up.
  const cf: bigint = await market.collateralFactorBps();
  const price: bigint = await oracle.getPrice(deployedContracts.wbnb);
  const minLimit = ceilDiv(H * debtValue, ONE);
  const minValue = ceilDiv(minLimit * 10_000n, cf);
  const minCollateral = ceilDiv(minValue * ONE, price);
  const collateral: bigint = await market.collateralOf(agentAddress);
  return {
    to: deployedContracts.lend_wbnb,
    data: market.interface.encodeFunctionData("withdraw", [collateral - minCollateral, agentAddress]),
  };
}
