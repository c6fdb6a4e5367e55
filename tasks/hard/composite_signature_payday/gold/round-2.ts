import { ethers } from "ethers";

const PERMIT2_TYPES = {
  PermitTransferFrom: [
    { name: "permitted", type: "TokenPermissions" },
    { name: "spender", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
  TokenPermissions: [
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
  ],
};
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
  const { qpd_token: qpd, qsd_token: qsd, quest_permit2: permit2, permit_router: router } = deployedContracts;
  const z = ethers.parseUnits("{{z}}", 18);
  const x = ethers.parseUnits("{{x}}", 18);
  const y = ethers.parseUnits("{{y}}", 6);
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 30 * 60);
  // Two Permit2 signatures in one transaction need two distinct unused nonces.
  const bitmap: bigint = await new ethers.Contract(
    permit2,
    ["function nonceBitmap(address, uint256) view returns (uint256)"],
    provider,
  ).nonceBitmap(agentAddress, 0n);
  const free: bigint[] = [];
  for (let n = 0n; free.length < 2; n++) if (((bitmap >> n) & 1n) === 0n) free.push(n);
  const permit2Sig = (token: string, amount: bigint, nonce: bigint) =>
    signer.signTypedData({ name: "Permit2", chainId: 56, verifyingContract: permit2 }, PERMIT2_TYPES, {
      permitted: { token, amount },
      spender: router,
      nonce,
      deadline,
    });
  const qpdNonce: bigint = await new ethers.Contract(
    qpd,
    ["function nonces(address) view returns (uint256)"],
    provider,
  ).nonces(agentAddress);
  const permit = ethers.Signature.from(
    await signer.signTypedData(
      { name: "Quest Permit Dollar", version: "1", chainId: 56, verifyingContract: qpd },
      PERMIT_TYPES,
      { owner: agentAddress, spender: router, value: x, nonce: qpdNonce, deadline },
    ),
  );
  const iface = new ethers.Interface([
    "function multicall(bytes[] data) returns (bytes[] results)",
    "function selfPermit(address token, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
    "function pay(address token, address recipient, uint256 amount)",
    "function payWithPermit2(((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, address recipient, bytes signature)",
  ]);
  const calls = [
    iface.encodeFunctionData("payWithPermit2", [
      { permitted: { token: qpd, amount: z }, nonce: free[0], deadline },
      "{{alice}}",
      await permit2Sig(qpd, z, free[0]!),
    ]),
    iface.encodeFunctionData("selfPermit", [qpd, x, deadline, permit.v, permit.r, permit.s]),
    iface.encodeFunctionData("pay", [qpd, "{{bob}}", x]),
    iface.encodeFunctionData("payWithPermit2", [
      { permitted: { token: qsd, amount: y }, nonce: free[1], deadline },
      "{{carol}}",
      await permit2Sig(qsd, y, free[1]!),
    ]),
  ];
  return { to: router, data: iface.encodeFunctionData("multicall", [calls]) };
}
