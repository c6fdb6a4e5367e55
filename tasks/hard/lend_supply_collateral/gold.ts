import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const oracle = new ethers.Contract(
    deployedContracts.price_oracle,
    ["function getPrice(address asset) view returns (uint256)"],
    provider,
  );
  const price: bigint = await oracle.getPrice(deployedContracts.cake); // USD per CAKE ×1e18
  const amount = (ethers.parseUnits("{{usd}}", 18) * 10n ** 18n) / price;
  const market = new ethers.Interface(["function supply(uint256 amount, address onBehalfOf)"]);
  return {
    to: deployedContracts.lend_cake,
    data: market.encodeFunctionData("supply", [amount, agentAddress]),
  };
}
