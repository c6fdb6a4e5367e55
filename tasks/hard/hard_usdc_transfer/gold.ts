import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const usdc = new ethers.Contract(
    deployedContracts.usdc,
    [
      "function decimals() view returns (uint8)",
      "function transfer(address to, uint256 amount) returns (bool)",
    ],
    provider,
  );
  const decimals = Number(await usdc.decimals()); // 6
  return {
    to: deployedContracts.usdc,
    data: usdc.interface.encodeFunctionData("transfer", ["{{to}}", ethers.parseUnits("{{x}}", decimals)]),
  };
}
