import { parseAbi } from "viem";
import type { CatalogueEntry } from "../catalogueTypes.ts";

const permitTokenAbi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function transferFrom(address from, address to, uint256 value) returns (bool)",
  "function decimals() view returns (uint8)",
  "function nonces(address owner) view returns (uint256)",
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
]);

const plainTokenAbi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function transferFrom(address from, address to, uint256 value) returns (bool)",
  "function decimals() view returns (uint8)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
]);

const permit2Abi = parseAbi([
  "struct TokenPermissions { address token; uint256 amount; }",
  "struct PermitTransferFrom { TokenPermissions permitted; uint256 nonce; uint256 deadline; }",
  "struct SignatureTransferDetails { address to; uint256 requestedAmount; }",
  "function permitTransferFrom(PermitTransferFrom permit, SignatureTransferDetails transferDetails, address owner, bytes signature)",
  "function nonceBitmap(address owner, uint256 word) view returns (uint256)",
  "function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)",
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
]);

const permitRouterAbi = parseAbi([
  "struct TokenPermissions { address token; uint256 amount; }",
  "struct PermitTransferFrom { TokenPermissions permitted; uint256 nonce; uint256 deadline; }",
  "function multicall(bytes[] data) returns (bytes[] results)",
  "function selfPermit(address token, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "function pay(address token, address recipient, uint256 amount)",
  "function payWithPermit2(PermitTransferFrom permit, address recipient, bytes signature)",
  "function permit2() view returns (address)",
  "event Paid(address indexed token, address indexed from, address indexed to, uint256 amount)",
]);

/**
 * The hard world (tasks/hard/README.md): an EIP-2612 permit token, a Permit2-like contract, a router accepting permits, batching. Every entry has `set: "hard"`, so only hard tasks' prompts list
 * it; entries are appended to the catalogue after the paper's, so the paper's addresses stay put.
 * Funding, the agent's Permit2 approval and its used nonces are set by src/world/hard/build/signatures.ts.
 */
export const HARD_SIGNATURES = {
  qpd_token: {
    set: "hard",
    place: {
      kind: "deployed",
      artifact: "QuestPermitToken",
      args: ["Quest Permit Dollar", "QPD", { account: "treasury" }, { ether: "10000000" }],
    },
    description:
      'Quest Permit Dollar (QPD): ERC-20 with 18 decimals and EIP-2612 permit (OpenZeppelin ERC20Permit; EIP-712 domain name "Quest Permit Dollar", version "1"; nonces(owner), DOMAIN_SEPARATOR(), eip712Domain())',
    abi: permitTokenAbi,
    token: { symbol: "QPD", name: "Quest Permit Dollar", decimals: 18 },
  },
  qsd_token: {
    set: "hard",
    place: {
      kind: "deployed",
      artifact: "QuestDecimalsToken",
      args: ["Quest Six Dollar", "QSD", 6n, { account: "treasury" }, 10_000_000_000_000n],
    },
    description:
      "Quest Six Dollar (QSD): plain ERC-20 with 6 decimals and no permit; the agent has approved quest_permit2 for it without limit (the usual Permit2 setup)",
    abi: plainTokenAbi,
    token: { symbol: "QSD", name: "Quest Six Dollar", decimals: 6 },
  },
  quest_permit2: {
    passThrough: true,
    set: "hard",
    place: { kind: "deployed", artifact: "QuestPermit2" },
    description:
      'Permit2 (SignatureTransfer only, as Uniswap\'s): permitTransferFrom(((address token,uint256 amount) permitted,uint256 nonce,uint256 deadline) permit,(address to,uint256 requestedAmount) transferDetails,address owner,bytes signature); the signer signs EIP-712 PermitTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline) with spender = the contract that calls it, domain { name: "Permit2", chainId, verifyingContract } (no version); unordered nonces: bit (nonce & 255) of nonceBitmap(owner, nonce >> 8) is set once used',
    abi: permit2Abi,
  },
  permit_router: {
    passThrough: true,
    set: "hard",
    place: { kind: "deployed", artifact: "QuestPermitRouter", args: [{ contract: "quest_permit2" }] },
    description:
      "Payment router accepting permits: multicall(bytes[] data) runs several of its own calls in one transaction (msg.sender stays you); selfPermit(address token,uint256 value,uint256 deadline,uint8 v,bytes32 r,bytes32 s) submits your EIP-2612 permit with this router as spender; pay(address token,address recipient,uint256 amount) moves your tokens to recipient (needs this router's allowance); payWithPermit2(((address token,uint256 amount) permitted,uint256 nonce,uint256 deadline) permit,address recipient,bytes signature) moves exactly permit.permitted.amount of your tokens to recipient through quest_permit2 (sign with this router as spender)",
    abi: permitRouterAbi,
  },
} satisfies Record<string, CatalogueEntry>;
