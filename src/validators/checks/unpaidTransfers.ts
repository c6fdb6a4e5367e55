import { ledgerWorld } from "../effects/ledgerWorld.ts";
import type { CheckContext } from "../types.ts";
import { nativeTransfers } from "./traces.ts";

/**
 * The BNB transfers of the attempt, at any depth, that reach an address outside `payees`: not paid
 * on by a payee (a router's own transfers are its business), not back to the agent, and not into a
 * venue that only passes assets through (Multicall3, a router: where the BNB goes next is judged,
 * and what the venue keeps of it, received less paid on in the same transaction, is unpaid).
 */
export async function unpaidTransfers(ctx: CheckContext, payees: ReadonlySet<string>) {
  const agent = ctx.world.agent.address.toLowerCase();
  const { passThrough } = ledgerWorld(ctx.world);
  const transfers = await nativeTransfers(ctx);
  const unpaid = transfers.filter((t) => {
    const [from, to] = [t.from.toLowerCase(), t.to.toLowerCase()];
    return !payees.has(from) && to !== agent && !passThrough.has(to) && !payees.has(to);
  });
  // What a pass-through venue keeps of a transaction's BNB (received less paid on) reached it unpaid.
  const kept = new Map<string, (typeof transfers)[number]>();
  for (const t of transfers) {
    const [from, to] = [t.from.toLowerCase(), t.to.toLowerCase()];
    if (passThrough.has(to) && !payees.has(from) && !payees.has(to)) {
      const k = `${t.tx.hash}:${to}`;
      kept.set(k, { ...t, value: (kept.get(k)?.value ?? 0n) + t.value });
    }
  }
  for (const t of transfers) {
    const k = `${t.tx.hash}:${t.from.toLowerCase()}`;
    const entry = kept.get(k);
    if (entry) kept.set(k, { ...entry, value: entry.value - t.value });
  }
  return [...unpaid, ...[...kept.values()].filter((t) => t.value > 0n)];
}
