import { createPublicClient, encodeAbiParameters, getAddress, type Hex, http, keccak256 } from "viem";

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  const client = createPublicClient({ transport: http(providerUrl) });
  const locker = deployedContracts.usdc_locker as Hex;
  // Layout: `token` is immutable (no slot); `owner` (20 bytes) and `lockCount` (4) share slot 0;
  // `_locks` is slot 1, so _locks[agent] starts at keccak256(pad(agent) . pad(1)).
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
  // Packed from the low-order end: word 0 = amount (uint96) | guardian; word 1 = unlockAt (uint40) | lockedAt | claimed.
  const amount = w0 & ((1n << 96n) - 1n);
  const guardian = getAddress(`0x${(w0 >> 96n).toString(16).padStart(40, "0")}`);
  const unlockAt = w1 & ((1n << 40n) - 1n);
  return { answer: { amount_units: amount.toString(), unlock_at: unlockAt.toString(), guardian } };
}
