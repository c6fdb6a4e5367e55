import { Contract, JsonRpcProvider } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new JsonRpcProvider(providerUrl);
  const token = new Contract(
    deployedContracts.usdt,
    [
      "function name() view returns (string)",
      "function symbol() view returns (string)",
      "function decimals() view returns (uint8)",
      "function totalSupply() view returns (uint256)",
    ],
    provider,
  );
  const [name, symbol, decimals, totalSupply] = await Promise.all([
    token.name(),
    token.symbol(),
    token.decimals(),
    token.totalSupply(),
  ]);
  return {
    answer: { name, symbol, decimals: Number(decimals), total_supply_wei: totalSupply.toString() },
  };
}
