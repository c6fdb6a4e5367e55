import { JsonRpcProvider } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new JsonRpcProvider(providerUrl);
  const [balance, fees] = await Promise.all([provider.getBalance(agentAddress), provider.getFeeData()]);
  // A plain transfer to an EOA costs exactly 21,000 gas; fixing gas limit and price makes the fee exact.
  const gasLimit = 21_000n;
  const gasPrice = fees.gasPrice! * 2n;
  return { to: "{{to}}", value: balance - gasLimit * gasPrice, gasLimit, gasPrice };
}
