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

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const signer = await provider.getSigner(agentAddress);
  const { qsd_token: qsd, quest_permit2: permit2, permit_router: router } = deployedContracts;
  const balance: bigint = await new ethers.Contract(
    qsd,
    ["function balanceOf(address) view returns (uint256)"],
    provider,
  ).balanceOf(agentAddress);
  const amount = (balance * BigInt("{{a}}")) / 100n;
  // The lowest nonce of word 0 whose bit is still 0.
  const bitmap: bigint = await new ethers.Contract(
    permit2,
    ["function nonceBitmap(address, uint256) view returns (uint256)"],
    provider,
  ).nonceBitmap(agentAddress, 0n);
  let nonce = 0n;
  while ((bitmap >> nonce) & 1n) nonce++;
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 30 * 60);
  const signature = await signer.signTypedData(
    { name: "Permit2", chainId: 56, verifyingContract: permit2 },
    PERMIT2_TYPES,
    { permitted: { token: qsd, amount }, spender: router, nonce, deadline },
  );
  const iface = new ethers.Interface([
    "function payWithPermit2(((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, address recipient, bytes signature)",
  ]);
  return {
    to: router,
    data: iface.encodeFunctionData("payWithPermit2", [
      { permitted: { token: qsd, amount }, nonce, deadline },
      "{{alice}}",
      signature,
    ]),
  };
}
