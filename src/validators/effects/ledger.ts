import type { PublicClient } from "viem";
import { fetchBlocks, recordBlocks } from "./ledgerLogs.ts";
import { historicalReads } from "./ledgerReads.ts";
import type { GrantRecord, Ledger } from "./ledgerTypes.ts";
import type { LedgerWorld } from "./ledgerWorld.ts";

/**
 * The effect ledger's assembly (docs/SCORING.md "Effect ledger"): what the window's blocks record
 * (ledgerLogs.ts) names the parties, assets and grants; the historical reads at both ends
 * (ledgerReads.ts) give the amounts; this adds them up into a {@link Ledger} (ledgerTypes.ts).
 */

/**
 * The ledger of the window (`fromBlock`, `toBlock`] of `client`'s chain.
 * @param fromBlock the block whose state is "before" (the instance's starting state).
 * @param toBlock the last block of the window (default: the head).
 * @throws when the node does not serve `debug_traceBlockByNumber` or `eth_getBlockReceipts`.
 */
export async function readLedger(
  client: PublicClient,
  lw: LedgerWorld,
  fromBlock: bigint,
  toBlock?: bigint,
): Promise<Ledger> {
  const end = toBlock ?? (await client.getBlockNumber({ cacheTime: 0 }));
  const recorded = recordBlocks(lw, await fetchBlocks(client, fromBlock, end));
  const { movements, grantLogs, called, txs, reads, nftMoves, v3Ids, positionParties, read, touch } =
    recorded;

  // The agent's own assets in every catalogue ERC-20 and position the window called are read even
  // without a log naming the agent, so a change by a call (a rebase, accrued interest paid) shows; a
  // contract nobody called changed by time alone, which is no one's action.
  read("native", lw.agent);
  for (const token of lw.fungibles) if (called.has(token)) read(`erc20:${token}`, lw.agent);
  for (const contract of lw.positions.keys()) if (called.has(contract)) touch(contract, lw.agent);

  const { balances, v3Owner, v3Liquidity, grantValue } = historicalReads(client, lw);
  const jobs = balances(reads, positionParties);

  const grantKeys = new Map<string, GrantRecord>();
  for (const g of grantLogs) {
    const key = `${g.kind}|${g.asset}|${g.owner}|${g.spender}`;
    const known = grantKeys.get(key);
    if (known) known.max = known.max > g.value ? known.max : g.value;
    else grantKeys.set(key, { ...g, max: g.value, start: 0n, end: 0n });
  }
  const net = new Map<string, Map<string, bigint>>();
  const add = (party: string, asset: string, delta: bigint) => {
    if (delta === 0n) return;
    const m = net.get(party) ?? new Map<string, bigint>();
    net.set(party, m);
    const v = (m.get(asset) ?? 0n) + delta;
    if (v === 0n) m.delete(asset);
    else m.set(asset, v);
    if (m.size === 0) net.delete(party);
  };

  await Promise.all([
    ...jobs.map(async (j) => {
      const [before, after] = await Promise.all([j.run(fromBlock), j.run(end)]);
      add(j.party, j.asset, after - before);
    }),
    ...[...grantKeys.values()].map(async (g) => {
      [g.start, g.end] = await Promise.all([grantValue(g, fromBlock), grantValue(g, end)]);
    }),
    ...[...v3Ids].flatMap(([manager, ids]) =>
      [...ids].map(async (id) => {
        const [ownerBefore, ownerAfter, before, after] = await Promise.all([
          v3Owner(manager, id, fromBlock),
          v3Owner(manager, id, end),
          v3Liquidity(manager, id, fromBlock),
          v3Liquidity(manager, id, end),
        ]);
        const asset = `v3liquidity:${manager}:${id}`;
        if (ownerBefore && ownerBefore === ownerAfter) add(ownerBefore, asset, after - before);
        else {
          if (ownerBefore) add(ownerBefore, asset, -before);
          if (ownerAfter) add(ownerAfter, asset, after);
        }
        if (after !== before && ownerAfter)
          movements.push({ tx: txs.at(-1)!.hash, party: ownerAfter, asset, amount: after - before });
      }),
    ),
  ]);
  // NFTs: ownership moves exactly as the logs say.
  for (const m of nftMoves) add(m.party, m.asset, m.amount);
  movements.push(...nftMoves);
  // The agent's fees are judged apart (rule 7 of effects.ts): its native line is net of them.
  for (const tx of txs) if (tx.from === lw.agent) add(lw.agent, "native", tx.fee);
  return {
    fromBlock,
    toBlock: end,
    net,
    movements,
    grants: [...grantKeys.values()],
    created: recorded.created,
    agentCreated: recorded.agentCreated,
    txs,
    called,
  };
}
