import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  // Tether-style: approve returns nothing (encoding is the same; only decoding a result would differ).
  const token = new ethers.Interface(["function approve(address spender, uint256 value)"]);
  return {
    to: deployedContracts.eusdt,
    data: token.encodeFunctionData("approve", ["{{spender}}", ethers.parseUnits("{{z}}", 6)]),
  };
}
