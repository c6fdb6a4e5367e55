import { Contract, JsonRpcProvider } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new JsonRpcProvider(providerUrl);
  const wbnb = new Contract(
    deployedContracts.wbnb,
    ["function balanceOf(address account) view returns (uint256)"],
    provider,
  );
  const [bnb, wbnbBalance]: [bigint, bigint] = await Promise.all([
    provider.getBalance(agentAddress),
    wbnb.balanceOf(agentAddress),
  ]);
  // the WBNB balance now, so the balance after the wrap is known without another read round
  return {
    answer: { bnb_balance_before_wei: bnb.toString(), wbnb_balance_before_wei: wbnbBalance.toString() },
  };
}
