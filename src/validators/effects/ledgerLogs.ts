import { type Hex, type PublicClient, toEventSelector } from "viem";
import { LEDGER_EVENTS, PERMIT2_EVENTS } from "../abi.ts";
import type { GrantRecord, LedgerTx, Movement } from "./ledgerTypes.ts";
import type { LedgerWorld } from "./ledgerWorld.ts";

/**
 * What the chain recorded in the ledger's window (docs/SCORING.md "Effect ledger"): each block's
 * receipts and `callTracer` traces, decoded into the parties and assets they name, the movements
 * they show, the grants their logs set, and the contracts called and created. Amounts of balances
 * are not decided here: the ledger reads them at both ends (ledgerReads.ts).
 */

const ZERO = "0x0000000000000000000000000000000000000000";

const T = Object.fromEntries(LEDGER_EVENTS.map((e) => [e.name, toEventSelector(e)])) as Record<
  (typeof LEDGER_EVENTS)[number]["name"],
  Hex
>;
const P2 = Object.fromEntries(PERMIT2_EVENTS.map((e) => [e.name, toEventSelector(e)])) as Record<
  (typeof PERMIT2_EVENTS)[number]["name"],
  Hex
>;

export type Frame = {
  type: string;
  from: string;
  to?: string;
  value?: Hex;
  error?: string;
  calls?: Frame[];
};
type RpcLog = { address: string; topics: Hex[]; data: Hex; transactionHash: Hex };
export type RpcReceipt = {
  transactionHash: Hex;
  from: string;
  to: string | null;
  status: Hex;
  gasUsed: Hex;
  effectiveGasPrice: Hex;
  logs: RpcLog[];
};

const addressOf = (word: Hex | undefined) => (word ? `0x${word.slice(-40)}`.toLowerCase() : ZERO);
const isPrecompile = (a: string) => BigInt(a) < 0x400n;

/** One block's receipts and traces (a trace per transaction, in the receipts' order). */
export type BlockRecord = {
  receipts: RpcReceipt[];
  traces: { result?: Frame; txHash?: Hex }[];
  /** The block's base fee per gas, wei (0 before London). */
  baseFee: bigint;
};

/** A grant a log set: the largest per key becomes a {@link GrantRecord}'s `max`. */
export type GrantLog = {
  kind: GrantRecord["kind"];
  asset: string;
  owner: string;
  spender: string;
  value: bigint;
};

/** What the window's logs and call frames record, and whose balances the ledger must read. */
export type Recorded = {
  movements: Movement[];
  grantLogs: GrantLog[];
  created: Map<string, string>;
  agentCreated: Set<string>;
  called: Set<string>;
  txs: LedgerTx[];
  /** asset → parties whose balance is read at both ends. */
  reads: Map<string, Set<string>>;
  nftMoves: Movement[];
  v3Ids: Map<string, Set<bigint>>;
  /** position contract → parties to read there. */
  positionParties: Map<string, Set<string>>;
  /** Adds a party whose balance of an asset is read (never a precompile; address zero for ERC-20s only). */
  read: (asset: string, party: string) => void;
  /** Adds a party to read at a contract with per-account positions. */
  touch: (contract: string, party: string) => void;
};

/** Every block of the window (`fromBlock`, `end`]: its receipts and its call traces. */
export function fetchBlocks(client: PublicClient, fromBlock: bigint, end: bigint): Promise<BlockRecord[]> {
  const blocks: bigint[] = [];
  for (let b = fromBlock + 1n; b <= end; b++) blocks.push(b);
  return Promise.all(
    blocks.map(async (b) => {
      const tag = `0x${b.toString(16)}`;
      const [receipts, traces, header] = await Promise.all([
        client.request({ method: "eth_getBlockReceipts" as never, params: [tag] as never }) as Promise<
          RpcReceipt[] | null
        >,
        client.request({
          method: "debug_traceBlockByNumber" as never,
          params: [tag, { tracer: "callTracer" }] as never,
        }) as Promise<{ result?: Frame; txHash?: Hex }[]>,
        client.request({
          method: "eth_getBlockByNumber" as never,
          params: [tag, false] as never,
        }) as Promise<{
          baseFeePerGas?: Hex;
        } | null>,
      ]);
      return { receipts: receipts ?? [], traces, baseFee: BigInt(header?.baseFeePerGas ?? "0x0") };
    }),
  );
}

/** Decodes the window's blocks (in order) into what they {@link Recorded}. */
export function recordBlocks(lw: LedgerWorld, fetched: BlockRecord[]): Recorded {
  const movements: Movement[] = [];
  const grantLogs: GrantLog[] = [];
  const created = new Map<string, string>();
  const agentCreated = new Set<string>();
  const called = new Set<string>();
  const txs: LedgerTx[] = [];
  /** asset → parties whose balance is read at both ends. */
  const reads = new Map<string, Set<string>>();
  const read = (asset: string, party: string) => {
    // Address zero's token balance is read (a token that lets anyone send to it credits it: value
    // burned, a stranger's gain); a burn by the token itself credits nobody. No other precompile.
    if (isPrecompile(party) && !(party === ZERO && asset.startsWith("erc20:"))) return;
    const set = reads.get(asset) ?? new Set<string>();
    reads.set(asset, set);
    set.add(party);
  };
  const nftMoves: Movement[] = [];
  const v3Ids = new Map<string, Set<bigint>>();
  /** position contract → parties to read there. */
  const positionParties = new Map<string, Set<string>>();
  const touch = (contract: string, party: string) => {
    if (!lw.positions.has(contract) || party === ZERO) return;
    const set = positionParties.get(contract) ?? new Set<string>();
    positionParties.set(contract, set);
    set.add(party);
  };

  for (const { receipts, traces, baseFee } of fetched) {
    for (const [i, receipt] of receipts.entries()) {
      const gasUsed = BigInt(receipt.gasUsed);
      const status = receipt.status === "0x1";
      const from = receipt.from.toLowerCase();
      const gasPrice = BigInt(receipt.effectiveGasPrice);
      txs.push({
        hash: receipt.transactionHash,
        from,
        to: receipt.to?.toLowerCase() ?? null,
        status,
        gasUsed,
        fee: gasUsed * gasPrice,
        tip: gasPrice > baseFee ? gasUsed * (gasPrice - baseFee) : 0n,
        gasPrice,
      });
      read("native", from);
      const hash = receipt.transactionHash;
      // Call frames: BNB moved by any call, at any depth, that did not revert; contracts created.
      const walk = (frame: Frame | undefined) => {
        if (!frame || frame.error) return;
        const to = frame.to?.toLowerCase();
        const value = frame.value ? BigInt(frame.value) : 0n;
        if (to && value > 0n && frame.type !== "DELEGATECALL") {
          read("native", frame.from.toLowerCase());
          read("native", to);
          movements.push({ tx: hash, party: frame.from.toLowerCase(), asset: "native", amount: -value });
          movements.push({ tx: hash, party: to, asset: "native", amount: value });
        }
        if (to && (frame.type === "CREATE" || frame.type === "CREATE2")) {
          created.set(to, frame.from.toLowerCase());
          if (from === lw.agent) agentCreated.add(to);
        }
        if (to) {
          touch(to, frame.from.toLowerCase());
          called.add(to);
        }
        for (const c of frame.calls ?? []) walk(c);
      };
      if (status) walk(traces[i]?.result);
      for (const log of receipt.logs) {
        const token = log.address.toLowerCase();
        const [topic, t1, t2, t3] = log.topics;
        for (const t of log.topics.slice(1)) if (/^0x0{24}/.test(t)) touch(token, addressOf(t));
        if (topic === T.Transfer && log.topics.length === 3) {
          const [a, b] = [addressOf(t1), addressOf(t2)];
          const amount = BigInt(log.data.slice(0, 66));
          read(`erc20:${token}`, a);
          read(`erc20:${token}`, b);
          if (a !== ZERO) movements.push({ tx: hash, party: a, asset: `erc20:${token}`, amount: -amount });
          if (b !== ZERO) movements.push({ tx: hash, party: b, asset: `erc20:${token}`, amount });
        } else if (topic === T.Transfer && log.topics.length === 4) {
          const asset = `erc721:${token}:${BigInt(t3!)}`;
          const [a, b] = [addressOf(t1), addressOf(t2)];
          if (a !== ZERO) nftMoves.push({ tx: hash, party: a, asset, amount: -1n });
          if (b !== ZERO) nftMoves.push({ tx: hash, party: b, asset, amount: 1n });
        } else if ((topic === T.Deposit || topic === T.Withdrawal) && log.topics.length === 2) {
          read(`erc20:${token}`, addressOf(t1));
          const amount = BigInt(log.data.slice(0, 66));
          movements.push({
            tx: hash,
            party: addressOf(t1),
            asset: `erc20:${token}`,
            amount: topic === T.Deposit ? amount : -amount,
          });
        } else if (topic === T.TransferSingle || topic === T.TransferBatch) {
          const [a, b] = [addressOf(t2), addressOf(t3)];
          const words = (log.data.slice(2).match(/.{64}/g) ?? []).map((w) => BigInt(`0x${w}`));
          let pairs: [bigint, bigint][];
          if (topic === T.TransferSingle) pairs = [[words[0]!, words[1]!]];
          else {
            const n = Number(words[2] ?? 0n);
            const ids = words.slice(3, 3 + n);
            const values = words.slice(4 + n, 4 + 2 * n);
            pairs = ids.map((id, k) => [id, values[k] ?? 0n]);
          }
          for (const [id, value] of pairs) {
            const asset = `erc1155:${token}:${id}`;
            read(asset, a);
            read(asset, b);
            if (a !== ZERO) movements.push({ tx: hash, party: a, asset, amount: -value });
            if (b !== ZERO) movements.push({ tx: hash, party: b, asset, amount: value });
          }
        } else if ((topic === T.IncreaseLiquidity || topic === T.DecreaseLiquidity) && t1) {
          const ids = v3Ids.get(token) ?? new Set<bigint>();
          v3Ids.set(token, ids);
          ids.add(BigInt(t1));
        } else if (topic === T.Approval && log.topics.length === 3) {
          grantLogs.push({
            kind: "erc20",
            asset: token,
            owner: addressOf(t1),
            spender: addressOf(t2),
            value: BigInt(log.data.slice(0, 66)),
          });
        } else if (topic === T.Approval && log.topics.length === 4) {
          grantLogs.push({
            kind: "erc721",
            asset: `${token}:${BigInt(t3!)}`,
            owner: addressOf(t1),
            spender: addressOf(t2),
            value: addressOf(t2) === ZERO ? 0n : 1n,
          });
        } else if (topic === T.ApprovalForAll) {
          grantLogs.push({
            kind: "operator",
            asset: token,
            owner: addressOf(t1),
            spender: addressOf(t2),
            value: BigInt(log.data.slice(0, 66)) === 0n ? 0n : 1n,
          });
        } else if ((topic === P2.Approval || topic === P2.Permit) && log.topics.length === 4) {
          grantLogs.push({
            kind: "permit2",
            asset: `${addressOf(t2)}@${token}`,
            owner: addressOf(t1),
            spender: addressOf(t3),
            value: BigInt(log.data.slice(0, 66)),
          });
        }
      }
    }
  }
  return {
    movements,
    grantLogs,
    created,
    agentCreated,
    called,
    txs,
    reads,
    nftMoves,
    v3Ids,
    positionParties,
    read,
    touch,
  };
}
