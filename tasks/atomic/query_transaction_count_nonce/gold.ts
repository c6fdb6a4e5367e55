import { JsonRpcProvider } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new JsonRpcProvider(providerUrl);
  const nonce = await provider.getTransactionCount("{{addr}}", "latest");
  return { answer: { nonce } };
}
