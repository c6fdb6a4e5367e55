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
  const balance: bigint = await usdt.balanceOf(agentAddress);
  const amount = (balance * BigInt("{{p}}")) / 100n;
  return {
    to: deployedContracts.usdt,
    data: usdt.interface.encodeFunctionData("transfer", ["{{to}}", amount]),
    value: 0n,
  };
}
