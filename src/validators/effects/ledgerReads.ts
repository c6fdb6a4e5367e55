import {
  AbiDecodingDataSizeTooSmallError,
  AbiDecodingZeroDataError,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  type PublicClient,
  parseAbi,
} from "viem";
import { LEDGER_READS_ABI } from "../abi.ts";
import type { GrantRecord } from "./ledgerTypes.ts";
import type { LedgerWorld } from "./ledgerWorld.ts";

/**
 * The effect ledger's historical reads (docs/SCORING.md "Effect ledger"): balances, positions, V3
 * positions' owners and liquidity, and grants, each read at a given block through
 * {@link settledRead}, so a contract that cannot answer reads as nothing held and a node that fails
 * is retried, then thrown.
 */

/**
 * True when a contract read failed because the contract gave no answer it could: it reverted, it has
 * no code at that block (created later), or its reply does not decode as the asked type. Such a read
 * means "nothing held / nothing granted". A failure of the node or the transport is not one.
 */
export function isContractRefusal(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    !!error.walk(
      (e) =>
        e instanceof ContractFunctionRevertedError ||
        e instanceof ContractFunctionZeroDataError ||
        e instanceof AbiDecodingZeroDataError ||
        e instanceof AbiDecodingDataSizeTooSmallError,
    )
  );
}

/** Delays before the 2nd, 3rd and 4th try of a historical read the node failed (ms). */
const NODE_RETRY_MS = [50, 250, 1000];

/**
 * One historical read of the ledger: `refused` when the contract cannot answer
 * ({@link isContractRefusal}). Any other failure is the node's: Anvil under load has answered a read
 * at a kept block with `BlockOutOfRangeError` while moving old states to its disk cache, and a
 * second read a moment later succeeds. So the read is tried again (up to {@link NODE_RETRY_MS}), and
 * the last error is thrown: an infrastructure fault the run retries on a fresh instance, never a
 * balance of 0 that would score the attempt on a wrong ledger.
 */
export async function settledRead<T, R>(read: () => Promise<T>, refused: R): Promise<T | R> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (isContractRefusal(error)) return refused;
      const delay = NODE_RETRY_MS[attempt];
      if (delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** One party's amount of one asset, read at any block (the ledger reads it at both ends). */
export type BalanceRead = { asset: string; party: string; run: (block: bigint) => Promise<bigint> };

/** The historical reads of `client`'s chain the ledger makes. */
export function historicalReads(client: PublicClient, lw: LedgerWorld) {
  const call = async <R>(address: string, functionName: string, args: unknown[], block: bigint) =>
    (await client.readContract({
      address: address as Address,
      abi: LEDGER_READS_ABI,
      functionName: functionName as never,
      args: args as never,
      blockNumber: block,
    })) as R;
  // No such contract or function at that block (created later, burned): nothing held.
  const orZero = (read: () => Promise<bigint>) => settledRead(read, 0n);

  /** The balance reads of every (asset, party) and every position reader's party. */
  const balances = (
    reads: Map<string, Set<string>>,
    positionParties: Map<string, Set<string>>,
  ): BalanceRead[] => {
    const jobs: BalanceRead[] = [];
    for (const [asset, parties] of reads) {
      const [kind, token, id] = asset.split(":") as [string, string, string | undefined];
      for (const party of parties) {
        const run =
          kind === "native"
            ? (block: bigint) =>
                settledRead(() => client.getBalance({ address: party as Address, blockNumber: block }), 0n)
            : kind === "erc20"
              ? (block: bigint) => orZero(() => call<bigint>(token, "balanceOf", [party], block))
              : (block: bigint) =>
                  orZero(() => call<bigint>(token, "balanceOf", [party, BigInt(id!)], block));
        jobs.push({ asset, party, run });
      }
    }
    for (const [contract, parties] of positionParties)
      for (const reader of lw.positions.get(contract)!) {
        const abi = parseAbi([reader.signature] as string[]);
        const name = (abi[0] as { name: string }).name;
        for (const party of parties)
          jobs.push({
            asset: `position:${contract}:${reader.key}`,
            party,
            run: (block) =>
              orZero(
                () =>
                  client.readContract({
                    address: contract as Address,
                    abi,
                    functionName: name as never,
                    args: [party] as never,
                    blockNumber: block,
                  }) as Promise<bigint>,
              ),
          });
      }
    return jobs;
  };
  // A position not minted yet, or burned, has no owner and no liquidity.
  const v3Owner = (manager: string, id: bigint, block: bigint) =>
    settledRead(async () => (await call<string>(manager, "ownerOf", [id], block)).toLowerCase(), undefined);
  const v3Liquidity = (manager: string, id: bigint, block: bigint) =>
    settledRead(
      async () => (await call<readonly unknown[]>(manager, "positions", [id], block))[7] as bigint,
      0n,
    );

  // A grant on a contract that cannot answer at that block (not deployed yet, id not minted) is none.
  const grantValue = (g: GrantRecord, block: bigint): Promise<bigint> =>
    settledRead(async () => {
      if (g.kind === "erc20") return await call<bigint>(g.asset, "allowance", [g.owner, g.spender], block);
      if (g.kind === "operator")
        return (await call<boolean>(g.asset, "isApprovedForAll", [g.owner, g.spender], block)) ? 1n : 0n;
      if (g.kind === "permit2") {
        const [token, permit2] = g.asset.split("@") as [string, string];
        return (await call<readonly bigint[]>(permit2, "allowance", [g.owner, token, g.spender], block))[0]!;
      }
      const [token, id] = g.asset.split(":") as [string, string];
      return (await call<string>(token, "getApproved", [BigInt(id)], block)).toLowerCase() === g.spender
        ? 1n
        : 0n;
    }, 0n);
  return { balances, v3Owner, v3Liquidity, grantValue };
}
