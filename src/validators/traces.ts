import { type Address, getAddress, type Hex } from "viem";
import type { CheckContext, SentTransaction } from "./types.ts";

/**
 * One call a transaction made, at any depth, that did not revert (Anvil's `debug_traceTransaction`
 * with geth's `callTracer`). `sender` and `value` are what the callee saw as msg.sender and
 * msg.value: a DELEGATECALL (a router's `multicall` running its own functions) keeps its parent's.
 */
export type CallFrame = {
  type: string;
  /** The code address that made the call. */
  from: Address;
  to: Address;
  sender: Address;
  /** Wei. */
  value: bigint;
  input: Hex;
  /** 0 for the transaction's own call. */
  depth: number;
};

type RawFrame = {
  type: string;
  from: string;
  to?: string;
  value?: Hex;
  input?: Hex;
  error?: string;
  calls?: RawFrame[];
};

const traced = new WeakMap<SentTransaction, Promise<CallFrame[]>>();

/**
 * Every call of `tx` that did not revert, outermost first (a reverted call and everything under it
 * left out: it changed nothing). Read once per transaction object.
 * @throws when the node does not serve `debug_traceTransaction` with `callTracer`.
 */
export function callFrames(ctx: Pick<CheckContext, "client">, tx: SentTransaction): Promise<CallFrame[]> {
  const known = traced.get(tx);
  if (known) return known;
  const frames = (async () => {
    const root = (await ctx.client.request({
      method: "debug_traceTransaction" as never,
      params: [tx.hash, { tracer: "callTracer" }] as never,
    })) as RawFrame;
    const out: CallFrame[] = [];
    const walk = (f: RawFrame, depth: number, parent: { sender: Address; value: bigint } | undefined) => {
      if (f.error || !f.to) return;
      const delegate = f.type === "DELEGATECALL" || f.type === "CALLCODE";
      const frame: CallFrame = {
        type: f.type,
        from: getAddress(f.from),
        to: getAddress(f.to),
        sender: delegate && parent ? parent.sender : getAddress(f.from),
        value: delegate && parent ? parent.value : f.value ? BigInt(f.value) : 0n,
        input: f.input ?? "0x",
        depth,
      };
      out.push(frame);
      for (const c of f.calls ?? []) walk(c, depth + 1, frame);
    };
    walk(root, 0, undefined);
    return out;
  })();
  traced.set(tx, frames);
  return frames;
}

/** Every BNB transfer of a call frame (not a DELEGATECALL, which moves nothing) of the attempt's successful transactions. */
export async function nativeTransfers(
  ctx: Pick<CheckContext, "client" | "txs">,
): Promise<{ tx: SentTransaction; from: Address; to: Address; value: bigint }[]> {
  const out: { tx: SentTransaction; from: Address; to: Address; value: bigint }[] = [];
  for (const tx of ctx.txs) {
    if (tx.receipt.status !== "success") continue;
    for (const f of await callFrames(ctx, tx))
      if (f.value > 0n && f.type !== "DELEGATECALL" && f.type !== "CALLCODE" && f.type !== "STATICCALL")
        out.push({ tx, from: f.from, to: f.to, value: f.value });
  }
  return out;
}
