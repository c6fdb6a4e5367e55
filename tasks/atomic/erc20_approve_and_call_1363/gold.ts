import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const token = new ethers.Interface([
    "function approveAndCall(address spender, uint256 value) returns (bool)",
  ]);
  return {
    to: deployedContracts.erc1363_token,
    data: token.encodeFunctionData("approveAndCall", [
      deployedContracts.erc1363_receiver,
      ethers.parseUnits("{{x}}", 18),
    ]),
  };
}
