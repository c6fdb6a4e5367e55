import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const iface = new ethers.Interface(["function setValue(uint256 newValue)"]);
  return {
    to: deployedContracts.delegate_call_proxy,
    data: iface.encodeFunctionData("setValue", [BigInt("{{v}}")]),
    value: 0n,
  };
}
