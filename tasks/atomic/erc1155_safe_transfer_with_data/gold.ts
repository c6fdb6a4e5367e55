import { encodeFunctionData, parseAbi, stringToHex } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const abi = parseAbi([
    "function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)",
  ]);
  const data = encodeFunctionData({
    abi,
    functionName: "safeTransferFrom",
    args: [
      agentAddress as `0x${string}`,
      "{{to}}" as `0x${string}`,
      1n,
      BigInt("{{n}}"),
      stringToHex("{{msg}}"),
    ],
  });
  return { to: deployedContracts.erc1155_token, data, value: 0n };
}
