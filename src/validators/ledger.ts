import {
  AbiDecodingDataSizeTooSmallError,
  AbiDecodingZeroDataError,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  type Hex,
  type PublicClient,
  parseAbi,
  toEventSelector,
} from "viem";
import { CATALOGUE } from "../world/catalogue.ts";
import type { World } from "../world/world.ts";

/**
 * The effect ledger of one attempt (docs/SCORING.md "Effect ledger"): what every address gained or
 * lost, in every asset, between two blocks of one chain, and every grant made meanwhile. It is
 * computed the same way for every task from what the chain records, never from the task's checks:
 * receipts' logs and call traces (`debug_traceBlockByNumber` with `callTracer`) name the parties and
 * assets, and balances read at both ends give the amounts (so rebasing and fee-on-transfer tokens
 * come out right).
 *
 * Asset keys: `native` (wei; the agent's is net of the gas fees it paid), `erc20:<token>` (the
 * token's smallest unit), `erc721:<token>:<id>` (±1), `erc1155:<token>:<id>`, `position:<contract>:<key>`
 * (a catalogue contract's per-account position, e.g. staked LP or lending debt, in its own unit),
 * `v3liquidity:<manager>:<id>` (a Uniswap V3 position's liquidity, credited to its owner).
 * Addresses are lower-case.
 */
export type Ledger = {
  /** The block the ledger starts after (its state is "before") and the block it ends at. */
  fromBlock: bigint;
  toBlock: bigint;
  /** party → asset → net change over the window. Zero entries are dropped. */
  net: Map<string, Map<string, bigint>>;
  /** Every credit or debit the logs and call frames show, in order: the "at any point" record. */
  movements: Movement[];
  /** Every grant set in the window (in order), with what stands at both ends. */
  grants: GrantRecord[];
  /** Contracts created in the window, with their creator. */
  created: Map<string, string>;
  /** The transactions mined in the window. */
  txs: LedgerTx[];
  /** Every contract a call frame that did not revert reached (lower-case). */
  called: Set<string>;
};

/** One transaction of the window. */
export type LedgerTx = {
  hash: Hex;
  from: string;
  to: string | null;
  status: boolean;
  gasUsed: bigint;
  fee: bigint;
};

/** One credit (amount > 0) or debit (< 0) of `asset` to `party`, as a log or a call frame shows it. */
export type Movement = { tx: Hex; party: string; asset: string; amount: bigint };

/**
 * One (asset, owner, spender) grant the window touched. `kind`: an ERC-20 allowance (`erc20`), a
 * per-token ERC-721 approval (`erc721`, value 1 or 0), an operator approval for a whole collection
 * (`operator`, 1 or 0), a Permit2 allowance (`permit2`). `max` is the largest value any log of the
 * window set (an approval made and revoked again shows here); `start` and `end` are read on chain.
 */
export type GrantRecord = {
  kind: "erc20" | "erc721" | "operator" | "permit2";
  /** The token (collection) contract, and for `erc721` the id: `<token>` or `<token>:<id>`. */
  asset: string;
  owner: string;
  spender: string;
  max: bigint;
  start: bigint;
  end: bigint;
};

const ZERO = "0x0000000000000000000000000000000000000000";

const EVENTS = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "event ApprovalForAll(address indexed owner, address indexed operator, bool approved)",
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
  "event Deposit(address indexed dst, uint256 wad)",
  "event Withdrawal(address indexed src, uint256 wad)",
  "event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
  "event DecreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
]);
const PERMIT2_EVENTS = parseAbi([
  "event Approval(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration)",
  "event Permit(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration, uint48 nonce)",
  "event Lockdown(address indexed owner, address token, address spender)",
]);
const T = Object.fromEntries(EVENTS.map((e) => [e.name, toEventSelector(e)])) as Record<
  (typeof EVENTS)[number]["name"],
  Hex
>;
const P2 = Object.fromEntries(PERMIT2_EVENTS.map((e) => [e.name, toEventSelector(e)])) as Record<
  (typeof PERMIT2_EVENTS)[number]["name"],
  Hex
>;

const READS = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function balanceOf(address, uint256) view returns (uint256)",
  "function allowance(address, address) view returns (uint256)",
  "function allowance(address, address, address) view returns (uint160, uint48, uint48)",
  "function getApproved(uint256) view returns (address)",
  "function isApprovedForAll(address, address) view returns (bool)",
  "function ownerOf(uint256) view returns (address)",
  "function positions(uint256) view returns (uint96, address, address, address, uint24, int24, int24, uint128, uint256, uint256, uint128, uint128)",
]);

/** One per-account position reader of a catalogue contract: `signature` called with the account. */
type PositionReader = { key: string; signature: string };

/** The paper world's staking positions (userInfo's first word is the staked amount). */
const PAPER_POSITIONS: Record<string, PositionReader[]> = {
  simple_staking: [{ key: "staked", signature: "function userInfo(address) view returns (uint256)" }],
  simple_lp_staking: [{ key: "staked", signature: "function userInfo(address) view returns (uint256)" }],
  simple_reward_pool: [{ key: "staked", signature: "function userInfo(address) view returns (uint256)" }],
};

/**
 * What the world's catalogue says about addresses, once per world: every catalogue contract (a
 * venue), its per-account position readers, and the ERC-20s (tokens and V2 pairs) whose balances the
 * agent's holdings include.
 */
export type LedgerWorld = {
  world: World;
  agent: string;
  /** lower-case address → catalogue key, for every contract entry (not the harness's EOAs). */
  venues: Map<string, string>;
  /** The venues that only pass assets through (catalogue `passThrough`). */
  passThrough: Set<string>;
  /** Liquidity pools (V2 pairs, V3 pools): a route may use any of them, so their flows are the market's. */
  pools: Set<string>;
  positions: Map<string, PositionReader[]>;
  /** ERC-20 contracts (tokens, V2 pairs, vault shares) the agent's assets are always read in. */
  fungibles: string[];
  symbols: Map<string, string>;
};

const worlds = new WeakMap<World, LedgerWorld>();

/** The catalogue's view of `world` for the ledger (memoised per world). */
export function ledgerWorld(world: World): LedgerWorld {
  const known = worlds.get(world);
  if (known) return known;
  const venues = new Map<string, string>();
  const passThrough = new Set<string>();
  const pools = new Set<string>();
  const positions = new Map<string, PositionReader[]>();
  const fungibles: string[] = [];
  const symbols = new Map<string, string>();
  for (const [key, address] of Object.entries(world.contracts) as [string, Address][]) {
    const entry = (CATALOGUE as Record<string, (typeof CATALOGUE)[keyof typeof CATALOGUE] | undefined>)[key];
    if (!entry || entry.place.kind === "account") continue;
    const a = address.toLowerCase();
    venues.set(a, key);
    if (entry.passThrough) passThrough.add(a);
    if (/^(pair_|v3_pool_|v3pool_)/.test(key)) pools.add(a);
    const readers = [
      ...(PAPER_POSITIONS[key] ?? []),
      ...(entry.holdings ?? [])
        .filter((h) => !/balanceOf/.test(h.signature))
        .map((h) => ({ key: h.key, signature: h.signature })),
    ];
    if (readers.length) positions.set(a, readers);
    if (entry.token || entry.place.kind === "pair" || /pair_|vault/.test(key)) fungibles.push(a);
    symbols.set(a, entry.token?.symbol ?? key);
  }
  const made: LedgerWorld = {
    world,
    agent: world.agent.address.toLowerCase(),
    venues,
    passThrough,
    pools,
    positions,
    fungibles,
    symbols,
  };
  worlds.set(world, made);
  return made;
}

type Frame = {
  type: string;
  from: string;
  to?: string;
  value?: Hex;
  error?: string;
  calls?: Frame[];
};
type RpcLog = { address: string; topics: Hex[]; data: Hex; transactionHash: Hex };
type RpcReceipt = {
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
async function settledRead<T, R>(read: () => Promise<T>, refused: R): Promise<T | R> {
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
  const movements: Movement[] = [];
  const grantLogs: {
    kind: GrantRecord["kind"];
    asset: string;
    owner: string;
    spender: string;
    value: bigint;
  }[] = [];
  const created = new Map<string, string>();
  const called = new Set<string>();
  const txs: LedgerTx[] = [];
  /** asset → parties whose balance is read at both ends. */
  const reads = new Map<string, Set<string>>();
  const read = (asset: string, party: string) => {
    if (party === ZERO || isPrecompile(party)) return;
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

  const blocks: bigint[] = [];
  for (let b = fromBlock + 1n; b <= end; b++) blocks.push(b);
  const fetched = await Promise.all(
    blocks.map(async (b) => {
      const tag = `0x${b.toString(16)}`;
      const [receipts, traces] = await Promise.all([
        client.request({ method: "eth_getBlockReceipts" as never, params: [tag] as never }) as Promise<
          RpcReceipt[] | null
        >,
        client.request({
          method: "debug_traceBlockByNumber" as never,
          params: [tag, { tracer: "callTracer" }] as never,
        }) as Promise<{ result?: Frame; txHash?: Hex }[]>,
      ]);
      return { receipts: receipts ?? [], traces };
    }),
  );

  for (const { receipts, traces } of fetched) {
    for (const [i, receipt] of receipts.entries()) {
      const gasUsed = BigInt(receipt.gasUsed);
      const status = receipt.status === "0x1";
      const from = receipt.from.toLowerCase();
      txs.push({
        hash: receipt.transactionHash,
        from,
        to: receipt.to?.toLowerCase() ?? null,
        status,
        gasUsed,
        fee: gasUsed * BigInt(receipt.effectiveGasPrice),
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
        if (to && (frame.type === "CREATE" || frame.type === "CREATE2"))
          created.set(to, frame.from.toLowerCase());
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

  // The agent's own assets in every catalogue ERC-20 and position the window called are read even
  // without a log naming the agent, so a change by a call (a rebase, accrued interest paid) shows; a
  // contract nobody called changed by time alone, which is no one's action.
  read("native", lw.agent);
  for (const token of lw.fungibles) if (called.has(token)) read(`erc20:${token}`, lw.agent);
  for (const contract of lw.positions.keys()) if (called.has(contract)) touch(contract, lw.agent);

  type Job = { asset: string; party: string; run: (block: bigint) => Promise<bigint> };
  const jobs: Job[] = [];
  const call = async <R>(address: string, functionName: string, args: unknown[], block: bigint) =>
    (await client.readContract({
      address: address as Address,
      abi: READS,
      functionName: functionName as never,
      args: args as never,
      blockNumber: block,
    })) as R;
  // No such contract or function at that block (created later, burned): nothing held.
  const orZero = (read: () => Promise<bigint>) => settledRead(read, 0n);
  for (const [asset, parties] of reads) {
    const [kind, token, id] = asset.split(":") as [string, string, string | undefined];
    for (const party of parties) {
      const run =
        kind === "native"
          ? (block: bigint) =>
              settledRead(() => client.getBalance({ address: party as Address, blockNumber: block }), 0n)
          : kind === "erc20"
            ? (block: bigint) => orZero(() => call<bigint>(token, "balanceOf", [party], block))
            : (block: bigint) => orZero(() => call<bigint>(token, "balanceOf", [party, BigInt(id!)], block));
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
  // A position not minted yet, or burned, has no owner and no liquidity.
  const v3Owner = (manager: string, id: bigint, block: bigint) =>
    settledRead(async () => (await call<string>(manager, "ownerOf", [id], block)).toLowerCase(), undefined);
  const v3Liquidity = (manager: string, id: bigint, block: bigint) =>
    settledRead(
      async () => (await call<readonly unknown[]>(manager, "positions", [id], block))[7] as bigint,
      0n,
    );

  const grantKeys = new Map<string, GrantRecord>();
  for (const g of grantLogs) {
    const key = `${g.kind}|${g.asset}|${g.owner}|${g.spender}`;
    const known = grantKeys.get(key);
    if (known) known.max = known.max > g.value ? known.max : g.value;
    else grantKeys.set(key, { ...g, max: g.value, start: 0n, end: 0n });
  }
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
  // The agent's gas is not an effect: fees come back into its native line.
  for (const tx of txs) if (tx.from === lw.agent) add(lw.agent, "native", tx.fee);
  return { fromBlock, toBlock: end, net, movements, grants: [...grantKeys.values()], created, txs, called };
}
