import { ethers } from "ethers";

const MULTICALL3_ABI = [
  "function aggregate3Value((address target, bool allowFailure, uint256 value, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const a = ethers.parseEther("{{a}}");
  const b = ethers.parseEther("{{b}}");
  const iface = new ethers.Interface(MULTICALL3_ABI);
  const data = iface.encodeFunctionData("aggregate3Value", [
    [
      { target: "{{first}}", allowFailure: false, value: a, callData: "0x" },
      { target: "{{second}}", allowFailure: false, value: b, callData: "0x" },
    ],
  ]);
  return { to: deployedContracts.multicall3, data, value: a + b };
}
