import { type Hex, type PublicClient, type TransactionReceipt, TransactionReceiptNotFoundError } from "viem";
import { ChainError } from "../errors.ts";

/**
 * How long the harness waits for a receipt (viem's default is 180 s). Anvil automines: a sent
 * transaction is mined within moments, so none after this long means the node died or stalled.
 */
export const RECEIPT_TIMEOUT_MS = 60_000;

/**
 * The receipt of a sent transaction, polled every 20 ms with `eth_getTransactionReceipt` until it
 * exists. Not viem's `waitForTransactionReceipt`: it looks for the receipt again only when it sees a
 * new block, and under automine the transaction's own block may be the last one that ever comes
 * (one transaction at a time): on forks and loaded machines it then timed out with the transaction
 * mined. Anvil's `eth_sendTransaction` can return the hash before its block is mined.
 * @param what names the transaction in the error.
 * @throws {ChainError} when no receipt exists after `timeoutMs`; viem's error when the node does not
 *   answer. Both are infrastructure faults (the attempt is retried).
 */
export async function minedReceipt(
  client: Pick<PublicClient, "getTransactionReceipt">,
  hash: Hex,
  what = "a transaction",
  timeoutMs = RECEIPT_TIMEOUT_MS,
): Promise<TransactionReceipt> {
  for (const until = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 20))) {
    // Not mined yet: look again. Any other error (the node is gone) is the caller's, at once.
    const receipt = await client
      .getTransactionReceipt({ hash })
      .catch((error) => (error instanceof TransactionReceiptNotFoundError ? null : Promise.reject(error)));
    if (receipt) return receipt;
    if (Date.now() > until) throw new ChainError(`${what} was not mined in ${timeoutMs / 1000} s (${hash}).`);
  }
}
