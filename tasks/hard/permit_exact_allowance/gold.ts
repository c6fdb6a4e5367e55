import { ethers } from "ethers";

const TOKEN_ABI = [
  "function nonces(address owner) view returns (uint256)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const token = new ethers.Contract(deployedContracts.qpd_token, TOKEN_ABI, provider);
  const spender = deployedContracts.permit_router;
  const value = ethers.parseUnits("{{x}}", 18);
  const nonce: bigint = await token.nonces(agentAddress);
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 30 * 60);
  const signer = await provider.getSigner(agentAddress);
  const signature = await signer.signTypedData(
    {
      name: "Quest Permit Dollar",
      version: "1",
      chainId: 56,
      verifyingContract: deployedContracts.qpd_token,
    },
    {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    { owner: agentAddress, spender, value, nonce, deadline },
  );
  const { v, r, s } = ethers.Signature.from(signature);
  return {
    to: deployedContracts.qpd_token,
    data: token.interface.encodeFunctionData("permit", [agentAddress, spender, value, deadline, v, r, s]),
  };
}
