import {
  createPublicClient,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  parseAbi,
  parseUnits,
} from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const locker = deployedContracts.usdc_locker as Hex;
  // _locks is slot 1 (token is immutable; owner and lockCount share slot 0): the lock starts at
  // keccak256(pad(agent) . pad(1)); word 0 = amount (low 96 bits) | guardian, word 1 = unlockAt (low 40 bits) | lockedAt | claimed.
  const base = BigInt(
    keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [agentAddress as Hex, 1n])),
  );
  const word = async (i: bigint) =>
    BigInt(
      (await client.getStorageAt({
        address: locker,
        slot: `0x${(base + i).toString(16).padStart(64, "0")}`,
      })) ?? "0x0",
    );
  const [w0, w1] = [await word(0n), await word(1n)];
  const amount = w0 & ((1n << 96n) - 1n);
  const unlockAt = w1 & ((1n << 40n) - 1n);
  const claimed = ((w1 >> 80n) & 0xffn) !== 0n;
  const now = (await client.getBlock()).timestamp;
  if (claimed) return { refuse: { reason: "the lock has already been claimed" } };
  if (now < unlockAt) return { refuse: { reason: `still locked until ${unlockAt} (now ${now})` } };
  if (amount < parseUnits("{{min}}", 6))
    return { refuse: { reason: `only ${amount} USDC base units locked, below the {{min}} USDC minimum` } };
  return {
    to: locker,
    data: encodeFunctionData({ abi: parseAbi(["function claim()"]), functionName: "claim" }),
  };
}
