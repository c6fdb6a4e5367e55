import { Contract, JsonRpcProvider } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new JsonRpcProvider(providerUrl);
  const token = new Contract(
    deployedContracts.erc1363_token,
    ["function allowance(address owner, address spender) view returns (uint256)"],
    provider,
  );
  const allowance: bigint = await token.allowance("{{owner}}", "{{spender}}");
  return { answer: { allowance_wei: allowance.toString() } };
}
