import { type Address, domainSeparator, type Hex, type PublicClient } from "viem";
import type { SignedTypedData } from "../../sandbox/typedDataSigner.ts";
import { SIGNATURE_READS_ABI } from "../abi.ts";
import { settledRead } from "./ledgerReads.ts";

/**
 * Signatures as grants (docs/SCORING.md "Effect ledger", rule 3): an EIP-712 signature the harness
 * made for the agent lets whoever holds it move the agent's assets until its nonce is used or its
 * deadline passes, whether or not any transaction ever shows it. The effect ledger therefore reads
 * every signature of the attempt as a grant of its own kind:
 * - EIP-2612 `Permit(owner, spender, value, nonce, deadline)` on the token `domain.verifyingContract`:
 *   usable while `nonces(owner)` has not passed `nonce` and `deadline` is ahead;
 * - Permit2 AllowanceTransfer `PermitSingle` / `PermitBatch` (`details.nonce`, `sigDeadline`): usable
 *   while `allowance(owner, token, spender).nonce` has not passed the signed nonce;
 * - Permit2 SignatureTransfer `PermitTransferFrom` / `PermitBatchTransferFrom` and their witness forms:
 *   usable while bit `nonce & 255` of `nonceBitmap(owner, nonce >> 8)` is unset;
 * - any other typed data: a grant of unknown kind, usable until proven otherwise.
 * A signature whose domain does not hash to the verifying contract's `DOMAIN_SEPARATOR()` (a wrong name,
 * version or chain) verifies nowhere: it grants nothing.
 */

/** One grant a signature makes: on `token` (null: unknown kind), to `spender`, of `amount` raw units. */
export type SignatureGrant = {
  kind: "permit" | "permit2" | "permit2Transfer" | "unknown";
  /** `domain.verifyingContract`, lower-case (the token for a permit, Permit2 otherwise). */
  verifier: string;
  token: string | null;
  spender: string | null;
  amount: bigint;
  /** The primary type, for a reason a person reads. */
  primaryType: string;
  /** Still usable at the end of the attempt (nonce unused, deadline ahead). */
  usable: boolean;
};

const lower = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : null);
const big = (v: unknown): bigint => {
  try {
    return typeof v === "bigint" ? v : BigInt(v as string | number);
  } catch {
    return 0n;
  }
};
const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map(record) : [record(v)]);

/** What one signature grants, before its usability is read: one entry per (token, spender). */
type Parsed = Omit<SignatureGrant, "usable"> & {
  owner: string | null;
  nonce: bigint;
  deadline: bigint;
};

/** Decodes a signature's grants by its primary type (the message fields EIP-2612 and Permit2 define). */
export function parseSignature(s: SignedTypedData): Parsed[] {
  const m = s.message;
  const verifier = lower(s.domain.verifyingContract) ?? "";
  const base = { verifier, primaryType: s.primaryType };
  switch (s.primaryType) {
    case "Permit":
      return [
        {
          ...base,
          kind: "permit",
          token: verifier,
          owner: lower(m.owner),
          spender: lower(m.spender),
          amount: big(m.value),
          nonce: big(m.nonce),
          deadline: big(m.deadline),
        },
      ];
    case "PermitSingle":
    case "PermitBatch":
      return list(m.details).map((d) => ({
        ...base,
        kind: "permit2" as const,
        token: lower(d.token),
        owner: null,
        spender: lower(m.spender),
        amount: big(d.amount),
        nonce: big(d.nonce),
        deadline: big(m.sigDeadline),
      }));
    default:
      if (/^Permit(Batch)?(Witness)?TransferFrom$/.test(s.primaryType))
        return list(m.permitted).map((p) => ({
          ...base,
          kind: "permit2Transfer" as const,
          token: lower(p.token),
          owner: null,
          spender: lower(m.spender),
          amount: big(p.amount),
          nonce: big(m.nonce),
          deadline: big(m.deadline),
        }));
      return [
        {
          ...base,
          kind: "unknown",
          token: null,
          owner: null,
          spender: null,
          amount: 0n,
          nonce: 0n,
          deadline: 0n,
        },
      ];
  }
}

/**
 * The grants `signatures` (all made for `agent`) still make at `block` of `client`'s chain.
 * @throws when the node fails a read (retried first; a contract that cannot answer reads as "used").
 */
export async function signatureGrants(
  client: PublicClient,
  agent: string,
  signatures: readonly SignedTypedData[],
  block: bigint,
): Promise<SignatureGrant[]> {
  if (signatures.length === 0) return [];
  const now = (await client.getBlock({ blockNumber: block })).timestamp;
  const read = <T>(address: string, functionName: string, args: unknown[], refused: T) =>
    settledRead(
      () =>
        client.readContract({
          address: address as Address,
          abi: SIGNATURE_READS_ABI,
          functionName: functionName as never,
          args: args as never,
          blockNumber: block,
        }) as Promise<T>,
      refused,
    );
  /** The signature's domain is the verifier's own (or the verifier states none). */
  const ownDomain = async (s: SignedTypedData) => {
    let hash: Hex;
    try {
      const { chainId } = s.domain;
      const domain = chainId === undefined ? s.domain : { ...s.domain, chainId: BigInt(chainId as string) };
      hash = domainSeparator({ domain: domain as never });
    } catch {
      return false;
    }
    const stated = await read<Hex | undefined>(
      String(s.domain.verifyingContract),
      "DOMAIN_SEPARATOR",
      [],
      undefined,
    );
    return stated === undefined || stated.toLowerCase() === hash.toLowerCase();
  };
  const grants = (
    await Promise.all(
      signatures.map(async (s) => {
        const own = await ownDomain(s);
        return parseSignature(s).map((p) => ({ ...p, own }));
      }),
    )
  ).flat();
  return Promise.all(
    grants.map(async ({ owner, nonce, deadline, own, ...g }): Promise<SignatureGrant> => {
      if (g.kind === "unknown") return { ...g, usable: true };
      if (!own || (owner !== null && owner !== agent)) return { ...g, usable: false };
      if (deadline <= now) return { ...g, usable: false };
      if (g.kind === "permit") {
        const next = await read<bigint | undefined>(g.verifier, "nonces", [agent], undefined);
        return { ...g, usable: next !== undefined && next <= nonce };
      }
      if (g.kind === "permit2") {
        const standing = await read<readonly [bigint, number, number] | undefined>(
          g.verifier,
          "allowance",
          [agent, g.token, g.spender],
          undefined,
        );
        return { ...g, usable: standing !== undefined && BigInt(standing[2]) <= nonce };
      }
      const word = await read<bigint | undefined>(g.verifier, "nonceBitmap", [agent, nonce >> 8n], undefined);
      return { ...g, usable: word !== undefined && ((word >> (nonce & 255n)) & 1n) === 0n };
    }),
  );
}

/** The grants the gold's signatures make, whatever became of them: who the request signs for. */
export function signedFor(signatures: readonly SignedTypedData[]): SignatureGrant[] {
  return signatures.flatMap(parseSignature).map(({ owner: _o, nonce: _n, deadline: _d, ...g }) => ({
    ...g,
    usable: true,
  }));
}
