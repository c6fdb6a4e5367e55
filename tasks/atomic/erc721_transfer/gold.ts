import { encodeFunctionData, parseAbi } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const data = encodeFunctionData({
    abi: parseAbi(["function transferFrom(address from, address to, uint256 tokenId)"]),
    functionName: "transferFrom",
    args: [agentAddress as `0x${string}`, "{{to}}" as `0x${string}`, BigInt("{{id}}")],
  });
  return { to: deployedContracts.erc721_token, data, value: 0n };
}
