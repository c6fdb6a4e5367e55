import { Contract, JsonRpcProvider } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new JsonRpcProvider(providerUrl);
  const usdt = new Contract(
    deployedContracts.usdt,
    ["function allowance(address owner, address spender) view returns (uint256)"],
    provider,
  );
  const allowance: bigint = await usdt.allowance(agentAddress, "{{spender}}");
  return { answer: { allowance_before_wei: allowance.toString() } };
}
