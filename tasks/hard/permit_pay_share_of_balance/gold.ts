import { ethers } from "ethers";

const TOKEN_ABI = ["function nonces(address owner) view returns (uint256)"];
const ROUTER_ABI = [
  "function multicall(bytes[] data) returns (bytes[] results)",
  "function selfPermit(address token, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "function pay(address token, address recipient, uint256 amount)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const provider = new ethers.JsonRpcProvider(providerUrl);
  const token = deployedContracts.qpd_token;
  const router = deployedContracts.permit_router;
  const balance: bigint = await new ethers.Contract(
    token,
    ["function balanceOf(address) view returns (uint256)"],
    provider,
  ).balanceOf(agentAddress);
  const amount = (balance * ethers.parseUnits("{{p}}", 2)) / 10000n;
  const nonce: bigint = await new ethers.Contract(token, TOKEN_ABI, provider).nonces(agentAddress);
  const latest = await provider.getBlock("latest");
  const deadline = BigInt(latest!.timestamp + 30 * 60);
  const signer = await provider.getSigner(agentAddress);
  const signature = await signer.signTypedData(
    { name: "Quest Permit Dollar", version: "1", chainId: 56, verifyingContract: token },
    {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    { owner: agentAddress, spender: router, value: amount, nonce, deadline },
  );
  const { v, r, s } = ethers.Signature.from(signature);
  const iface = new ethers.Interface(ROUTER_ABI);
  const calls = [
    iface.encodeFunctionData("selfPermit", [token, amount, deadline, v, r, s]),
    iface.encodeFunctionData("pay", [token, "{{recipient}}", amount]),
  ];
  return { to: router, data: iface.encodeFunctionData("multicall", [calls]) };
}
