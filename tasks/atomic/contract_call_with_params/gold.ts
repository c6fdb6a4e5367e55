import { encodeFunctionData, parseAbi } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const data = encodeFunctionData({
    abi: parseAbi(["function setMessage(string newMessage)"]),
    functionName: "setMessage",
    args: ["{{msg}}"],
  });
  return { to: deployedContracts.message_board, data, value: 0n };
}
