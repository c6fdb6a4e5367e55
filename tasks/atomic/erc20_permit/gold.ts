import { ethers } from "ethers";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const token = new ethers.Interface([
    "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  ]);
  const sig = ethers.Signature.from({ v: Number("{{sig_v}}"), r: "{{sig_r}}", s: "{{sig_s}}" });
  const data = token.encodeFunctionData("permit", [
    "{{owner}}",
    "{{spender}}",
    ethers.parseUnits("{{v}}", 18),
    BigInt("{{deadline}}"),
    sig.v,
    sig.r,
    sig.s,
  ]);
  return { to: deployedContracts.erc1363_token, data };
}
