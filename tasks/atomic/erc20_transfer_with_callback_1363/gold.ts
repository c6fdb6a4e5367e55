import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const token = new ethers.Interface(["function transferAndCall(address to, uint256 value) returns (bool)"]);
  return {
    to: deployedContracts.erc1363_token,
    data: token.encodeFunctionData("transferAndCall", [
      deployedContracts.erc1363_receiver,
      ethers.parseUnits("{{x}}", 18),
    ]),
  };
}
