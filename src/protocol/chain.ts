import {
  type Account,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  type TestClient,
  BaseError as ViemBaseError,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { cleanText } from "../sandbox/cleanText.ts";
import type { SentTransaction } from "../validators/types.ts";
import { minedReceipt } from "../world/receipt.ts";
import { keepAliveFetch } from "../world/rpcHttp.ts";
import type { World } from "../world/world.ts";
import type { TransactionRequest } from "./transaction.ts";

/** BNB Smart Chain as the local world presents it (chain id 56). */
export const localBsc = (url: string) =>
  defineChain({
    id: 56,
    name: "BNB Smart Chain (local)",
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });

/** The harness's direct clients for one Anvil (the model never sees this URL). */
export type ChainClients = {
  url: string;
  public: PublicClient;
  test: TestClient<"anvil">;
  agent: WalletClient & { account: Account };
};

export function chainClients(url: string, world: World): ChainClients {
  const chain = localBsc(url);
  // batch: reads issued together (a check's pre-state, holdingsUnchanged's snapshot) travel in one
  // JSON-RPC batch request instead of one HTTP round trip each (~100 ms less per atomic instance).
  const transport = http(url, { retryCount: 0, timeout: 30_000, fetchFn: keepAliveFetch, batch: true });
  return {
    url,
    public: createPublicClient({ chain, transport }) as PublicClient,
    test: createTestClient({ chain, transport, mode: "anvil" }) as TestClient<"anvil">,
    agent: createWalletClient({
      chain,
      transport,
      account: privateKeyToAccount(world.agent.privateKey as Hex),
    }) as WalletClient & { account: Account },
  };
}

/** Gas margin over `eth_estimateGas`: +25 %, as wallets do, so state drift between estimate and send does not run out of gas. */
export const GAS_MARGIN_PERCENT = 125n;
/** Gas used when estimation fails (the call reverts): the tx is still sent so the revert is mined and recorded. */
export const FALLBACK_GAS = 1_000_000n;

/**
 * Signs `tx` with the agent key, sends it and waits for the receipt (docs/ARCHITECTURE.md "The attempt's contract": the harness, never
 * the model, signs). Gas: the module's own value if given, else the estimate × 1.25, else 1,000,000.
 * @returns the mined transaction, or `rejected` when the node refused it (e.g. fee below base fee).
 */
export async function signAndSend(
  clients: ChainClients,
  tx: TransactionRequest,
): Promise<SentTransaction | { rejected: string }> {
  const account = clients.agent.account;
  let gas = tx.gas;
  if (gas === undefined) {
    try {
      gas =
        ((await clients.public.estimateGas({ account, to: tx.to, data: tx.data, value: tx.value })) *
          GAS_MARGIN_PERCENT) /
        100n;
    } catch {
      gas = FALLBACK_GAS;
    }
  }
  const fees =
    tx.gasPrice !== undefined
      ? { gasPrice: tx.gasPrice }
      : tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined
        ? { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas }
        : {};
  let hash: Hex;
  try {
    hash = await clients.agent.sendTransaction({
      account,
      chain: clients.agent.chain,
      to: tx.to,
      data: tx.data,
      value: tx.value,
      gas,
      ...fees,
    } as never);
  } catch (error) {
    return { rejected: error instanceof ViemBaseError ? error.shortMessage : String(error) };
  }
  const receipt = await minedReceipt(clients.public, hash, "the answer's transaction");
  const sent: SentTransaction = {
    hash,
    to: receipt.to,
    input: tx.data,
    value: tx.value,
    receipt,
    fee: receipt.gasUsed * receipt.effectiveGasPrice,
  };
  if (receipt.status === "reverted") sent.revertReason = await revertReason(clients, tx, receipt.blockNumber);
  return sent;
}

/** Replays a reverted transaction as `eth_call` on the parent block to read its revert reason. */
async function revertReason(
  clients: ChainClients,
  tx: TransactionRequest,
  blockNumber: bigint,
): Promise<string | undefined> {
  try {
    await clients.public.call({
      account: clients.agent.account,
      to: tx.to,
      data: tx.data,
      value: tx.value,
      blockNumber: blockNumber - 1n,
    });
    return undefined;
  } catch (error) {
    const e = error as ViemBaseError & { cause?: { reason?: string; data?: unknown } };
    const walked = e.walk?.((err) => typeof (err as { reason?: string }).reason === "string") as
      | { reason?: string }
      | undefined;
    // Revert data the model's transaction chose: cleaned like every model text (docs/SECURITY.md).
    return cleanText(
      walked?.reason ??
        e.shortMessage?.replace(/^Execution reverted with reason: /, "") ??
        "execution reverted",
    );
  }
}
