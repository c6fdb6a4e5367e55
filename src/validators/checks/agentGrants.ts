import { type Address, decodeEventLog, getAddress, toEventSelector } from "viem";
import { APPROVAL_EVENTS, GRANT_READS_ABI } from "../abi.ts";
import type { CheckContext } from "../types.ts";

/** The grants an attempt's Approval / ApprovalForAll logs show the agent touching, and their values. */

const APPROVAL = toEventSelector(APPROVAL_EVENTS[0]);
const APPROVAL_FOR_ALL = toEventSelector(APPROVAL_EVENTS[1]);
/** An allowance this large is "unlimited" (2^256 − 1 and the values wallets use near it). */
export const UNLIMITED = 1n << 255n;

/** One grant the agent touched: an ERC-20 allowance or an ERC-721/1155 operator approval. */
export type Grant = { kind: "allowance" | "operator"; token: Address; spender: Address };

/** Every (token, spender) the agent's Approval / ApprovalForAll logs of the attempt name. */
export function grantsTouched(ctx: CheckContext): Grant[] {
  const agent = ctx.world.agent.address.toLowerCase();
  const seen = new Map<string, Grant>();
  for (const log of ctx.txs.flatMap((t) => t.receipt.logs)) {
    const topic = log.topics[0];
    if (topic !== APPROVAL && topic !== APPROVAL_FOR_ALL) continue;
    let args: Record<string, unknown>;
    try {
      args = decodeEventLog({ abi: APPROVAL_EVENTS, data: log.data, topics: log.topics }).args as never;
    } catch {
      continue; // an ERC-721 Approval (id indexed) is a per-token grant: the holdings read covers it
    }
    if (String(args.owner).toLowerCase() !== agent) continue;
    const spender = getAddress(String(args.spender ?? args.operator));
    const kind = topic === APPROVAL ? "allowance" : "operator";
    seen.set(`${kind}:${log.address.toLowerCase()}:${spender.toLowerCase()}`, {
      kind,
      token: getAddress(log.address),
      spender,
    });
  }
  return [...seen.values()];
}

export async function readGrant(ctx: CheckContext, g: Grant, blockNumber: bigint): Promise<bigint> {
  const agent = ctx.world.agent.address;
  if (g.kind === "allowance")
    return ctx.client.readContract({
      address: g.token,
      abi: GRANT_READS_ABI,
      functionName: "allowance",
      args: [agent, g.spender],
      blockNumber,
    });
  return (await ctx.client.readContract({
    address: g.token,
    abi: GRANT_READS_ABI,
    functionName: "isApprovedForAll",
    args: [agent, g.spender],
    blockNumber,
  }))
    ? 1n
    : 0n;
}
