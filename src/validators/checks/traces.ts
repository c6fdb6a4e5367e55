import { type Address, getAddress, type Hex } from "viem";
import type { CheckContext, SentTransaction } from "../types.ts";

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

/**
 * The calls a transaction makes on the agent's behalf: the transaction's own call, or, when it goes
 * to Multicall3 (a forwarder: it makes each call of a batch itself, in order), the calls it made,
 * through nested batches too. A payment or call batched through Multicall3 is the same request.
 */
export async function agentCalls(
  ctx: Pick<CheckContext, "client" | "world">,
  tx: SentTransaction,
): Promise<{ to: Address; input: Hex; value: bigint }[]> {
  const forwarder = ctx.world.contracts.multicall3.toLowerCase();
  if (tx.to?.toLowerCase() !== forwarder || tx.receipt.status !== "success")
    return tx.to ? [{ to: tx.to, input: tx.input, value: tx.value }] : [];
  const frames = await callFrames(ctx, tx);
  const out: { to: Address; input: Hex; value: bigint }[] = [];
  const expand = (index: number) => {
    const parent = frames[index]!;
    for (let i = index + 1; i < frames.length && frames[i]!.depth > parent.depth; i++) {
      const f = frames[i]!;
      if (f.depth !== parent.depth + 1 || f.type === "STATICCALL") continue;
      if (f.to.toLowerCase() === forwarder) expand(i);
      else out.push({ to: f.to, input: f.input, value: f.value });
    }
  };
  expand(0);
  return out;
}
