import { Contract, JsonRpcProvider } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new JsonRpcProvider(providerUrl);
  const token = new Contract(
    deployedContracts.usdt,
    ["function balanceOf(address account) view returns (uint256)"],
    provider,
  );
  const balance: bigint = await token.balanceOf(agentAddress);
  return { answer: { usdt_balance_wei: balance.toString() } };
}
