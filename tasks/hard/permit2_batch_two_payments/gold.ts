import { ethers } from "ethers";

const TYPES = {
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

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const signer = await provider.getSigner(agentAddress);
  const { qsd_token: token, quest_permit2: permit2, permit_router: router } = deployedContracts;
  const payments: [string, bigint][] = [
    ["{{first}}", ethers.parseUnits("{{p}}", 6)],
    ["{{second}}", ethers.parseUnits("{{q}}", 6)],
  ];
  const bitmap: bigint = await new ethers.Contract(
    permit2,
    ["function nonceBitmap(address, uint256) view returns (uint256)"],
    provider,
  ).nonceBitmap(agentAddress, 0n);
  // One unused nonce per signature: Permit2 burns each nonce once.
  const free: bigint[] = [];
  for (let n = 0n; free.length < payments.length; n++) if (((bitmap >> n) & 1n) === 0n) free.push(n);
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 30 * 60);
  const iface = new ethers.Interface([
    "function multicall(bytes[] data) returns (bytes[] results)",
    "function payWithPermit2(((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, address recipient, bytes signature)",
  ]);
  const calls: string[] = [];
  for (const [i, [recipient, amount]] of payments.entries()) {
    const nonce = free[i]!;
    const signature = await signer.signTypedData(
      { name: "Permit2", chainId: 56, verifyingContract: permit2 },
      TYPES,
      { permitted: { token, amount }, spender: router, nonce, deadline },
    );
    calls.push(
      iface.encodeFunctionData("payWithPermit2", [
        { permitted: { token, amount }, nonce, deadline },
        recipient,
        signature,
      ]),
    );
  }
  return { to: router, data: iface.encodeFunctionData("multicall", [calls]) };
}
