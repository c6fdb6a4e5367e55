import { ethers } from "ethers";

const PERMIT2_ABI = ["function nonceBitmap(address owner, uint256 word) view returns (uint256)"];
const ROUTER_ABI = [
  "function payWithPermit2(((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, address recipient, bytes signature)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const permit2 = deployedContracts.quest_permit2;
  const router = deployedContracts.permit_router;
  const token = deployedContracts.qpd_token;
  const amount = ethers.parseUnits("{{z}}", 18);
  // Unordered nonces: take the lowest clear bit of word 0.
  const bitmap: bigint = await new ethers.Contract(permit2, PERMIT2_ABI, provider).nonceBitmap(
    agentAddress,
    0n,
  );
  let nonce = 0n;
  while ((bitmap >> nonce) & 1n) nonce += 1n;
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 30 * 60);
  const signer = await provider.getSigner(agentAddress);
  const signature = await signer.signTypedData(
    { name: "Permit2", chainId: 56, verifyingContract: permit2 },
    {
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
    },
    { permitted: { token, amount }, spender: router, nonce, deadline },
  );
  const iface = new ethers.Interface(ROUTER_ABI);
  return {
    to: router,
    data: iface.encodeFunctionData("payWithPermit2", [
      { permitted: { token, amount }, nonce, deadline },
      "{{recipient}}",
      signature,
    ]),
  };
}
