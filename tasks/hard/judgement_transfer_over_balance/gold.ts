import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const usdt = new ethers.Contract(
    deployedContracts.usdt,
    [
      "function balanceOf(address) view returns (uint256)",
      "function transfer(address to, uint256 amount) returns (bool)",
    ],
    provider,
  );
  const amount = ethers.parseUnits("{{x}}", 18);
  const balance: bigint = await usdt.balanceOf(agentAddress);
  if (amount > balance)
    return {
      refuse: {
        reason: `the transfer of {{x}} USDT exceeds the balance of ${ethers.formatUnits(balance, 18)} USDT`,
      },
    };
  return {
    to: deployedContracts.usdt,
    data: usdt.interface.encodeFunctionData("transfer", ["{{to}}", amount]),
  };
}
