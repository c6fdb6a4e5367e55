import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const lender = new ethers.Interface(["function executeFlashLoan(address token, uint256 amount)"]);
  return {
    to: deployedContracts.flashloan_contract,
    data: lender.encodeFunctionData("executeFlashLoan", [
      deployedContracts.usdt,
      ethers.parseUnits("{{x}}", 18),
    ]),
    value: 0n,
  };
}
