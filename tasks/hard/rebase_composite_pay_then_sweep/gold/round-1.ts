import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const token = new ethers.Contract(
    deployedContracts.qsteth,
    [
      "function totalPooled() view returns (uint256)",
      "function totalShares() view returns (uint256)",
      "function transferShares(address to, uint256 shares) returns (uint256)",
    ],
    provider,
  );
  const [pooled, shares]: [bigint, bigint] = await Promise.all([token.totalPooled(), token.totalShares()]);
  const amount = ethers.parseUnits("{{x}}", 18);
  // The recipient (balance 0) gets ⌊s·pooled/shares⌋: the least s with that ≥ amount is ⌈amount·shares/pooled⌉.
  const s = (amount * shares + pooled - 1n) / pooled;
  return {
    to: deployedContracts.qsteth,
    data: token.interface.encodeFunctionData("transferShares", ["{{alice}}", s]),
  };
}
