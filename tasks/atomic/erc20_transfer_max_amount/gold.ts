import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const token = new ethers.Contract(
    deployedContracts["{{token.key}}"],
    [
      "function balanceOf(address) view returns (uint256)",
      "function transfer(address to, uint256 amount) returns (bool)",
    ],
    provider,
  );
  const balance: bigint = await token.balanceOf(agentAddress);
  return {
    to: deployedContracts["{{token.key}}"],
    data: token.interface.encodeFunctionData("transfer", ["{{to}}", balance]),
  };
}
