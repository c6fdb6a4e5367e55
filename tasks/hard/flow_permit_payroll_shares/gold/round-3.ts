import { ethers } from "ethers";

const PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
};

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const signer = await provider.getSigner(agentAddress);
  const { qpd_token: qpd, permit_router: router } = deployedContracts;
  const token = new ethers.Contract(
    qpd,
    ["function balanceOf(address) view returns (uint256)", "function nonces(address) view returns (uint256)"],
    provider,
  );
  const value = ((await token.balanceOf(agentAddress)) * BigInt("{{c}}")) / 100n;
  const nonce: bigint = await token.nonces(agentAddress);
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 30 * 60);
  const permit = ethers.Signature.from(
    await signer.signTypedData(
      { name: "Quest Permit Dollar", version: "1", chainId: 56, verifyingContract: qpd },
      PERMIT_TYPES,
      { owner: agentAddress, spender: router, value, nonce, deadline },
    ),
  );
  const iface = new ethers.Interface([
    "function multicall(bytes[] data) returns (bytes[] results)",
    "function selfPermit(address token, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
    "function pay(address token, address recipient, uint256 amount)",
  ]);
  return {
    to: router,
    data: iface.encodeFunctionData("multicall", [
      [
        iface.encodeFunctionData("selfPermit", [qpd, value, deadline, permit.v, permit.r, permit.s]),
        iface.encodeFunctionData("pay", [qpd, "{{carol}}", value]),
      ],
    ]),
  };
}
