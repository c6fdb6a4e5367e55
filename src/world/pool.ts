import { ChainError } from "../errors.ts";
import type { AnvilHandle } from "./anvil.ts";
import { postJson } from "./rpcHttp.ts";
import { type World, worldStatePath } from "./world.ts";

/**
 * Sends one JSON-RPC request straight to Anvil (the harness's own channel, never the guarded URL a
 * model sees).
 *
 * @throws {ChainError} on a JSON-RPC error, a non-200 answer or after `timeoutMs` (default 10 s).
 */
export async function anvilRpc<T = unknown>(
  url: string,
  method: string,
  params: unknown[] = [],
  timeoutMs = 10_000,
): Promise<T> {
  let body: { result?: T; error?: { code: number; message: string } };
  try {
    const response = await postJson(
      url,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      timeoutMs,
    );
    body = JSON.parse(response.text) as typeof body;
  } catch (error) {
    throw new ChainError(`Anvil at ${url} did not answer ${method}.`, { cause: error });
  }
  if (body.error) {
    throw new ChainError(`Anvil rejected ${method}.`, {
      details: `${body.error.code}: ${body.error.message}`,
    });
  }
  return body.result as T;
}

/**
 * Makes time deterministic on a freshly booted (or reverted) instance: Anvil does not keep the block
 * interval in its state file, and after `--load-state` it would stamp the next block with the wall
 * clock. `evm_setTime(head)` moves Anvil's clock back to the head block's timestamp (plain
 * `evm_setNextBlockTimestamp` is refused there, as Anvil's clock already ran past it), and
 * `anvil_setBlockTimestampInterval 1` makes every next block exactly 1 s later than its parent.
 */
export async function primeWorldClock(url: string): Promise<void> {
  const head = await anvilRpc<{
    timestamp: string;
    baseFeePerGas?: string;
    gasUsed: string;
    gasLimit: string;
  }>(url, "eth_getBlockByNumber", ["latest", false]);
  await anvilRpc(url, "evm_setTime", [Number(head.timestamp)]);
  await anvilRpc(url, "anvil_setBlockTimestampInterval", [1]);
  // Anvil keeps its next base fee outside the snapshot, so after a revert it would follow whatever
  // the previous instance mined: pin it to the EIP-1559 successor of the head block, so the same seed
  // pays the same fees on any instance, in any order.
  if (head.baseFeePerGas !== undefined)
    await anvilRpc(url, "anvil_setNextBlockBaseFeePerGas", [
      `0x${nextBaseFee(BigInt(head.baseFeePerGas), BigInt(head.gasUsed), BigInt(head.gasLimit)).toString(16)}`,
    ]);
}

/** EIP-1559 base fee of the block after one with `baseFee`, `gasUsed` and `gasLimit` (elasticity 2, denominator 8). */
export function nextBaseFee(baseFee: bigint, gasUsed: bigint, gasLimit: bigint): bigint {
  const target = gasLimit / 2n;
  if (target === 0n || gasUsed === target) return baseFee;
  if (gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / target / 8n;
    return baseFee + (delta > 1n ? delta : 1n);
  }
  return baseFee - (baseFee * (target - gasUsed)) / target / 8n;
}

/** Exclusive use of one Anvil instance, at the world snapshot when handed out. */
export type Lease = {
  /** Direct JSON-RPC URL of the instance (harness side). */
  url: string;
  /** Position of the instance in the pool (stable across replacements). */
  index: number;
  /** Returns the instance; it is reverted to the snapshot before anyone else gets it. Idempotent. */
  release(): void;
  /**
   * Reverts to the world snapshot (`evm_revert` must return true) and takes a new snapshot, since
   * Anvil consumes the id on revert. Wait for every receipt before calling it.
   * @throws {ChainError} when the revert returns false or the instance does not answer.
   */
  reset(): Promise<void>;
};

/** Parameters of {@link createAnvilPool}. */
export type CreateAnvilPoolParameters = {
  /** Number of Anvil instances (= the run's concurrency). */
  size: number;
  /** State file to boot from; default `fixtures/world/state.json`. */
  stateFile?: string | undefined;
  /** The world the state file belongs to (chain id). */
  world: World;
  /** Milliseconds the `eth_chainId` health check may take. Default 2,000. */
  healthTimeoutMs?: number | undefined;
  /**
   * URLs of instances already booted from the state file by another process (the Vitest global
   * setup): the pool takes their snapshots instead of starting processes, and only boots its own
   * when one of them must be replaced. `size` is then `attach.length`.
   */
  attach?: string[] | undefined;
  /**
   * Starts one instance in place of booting from `stateFile` (fork mode: fork + provisioning, see
   * src/world/fork/boot.ts). It must return an instance at `world.snapshot`; the pool pins its clock
   * and takes the snapshot as for a state-file boot.
   */
  boot?: (() => Promise<AnvilHandle>) | undefined;
};

/** N Anvil instances leased one user at a time, FIFO (docs/ARCHITECTURE.md "Anvil pool"; paper §4.3). */
export type AnvilPool = {
  /** Boots every instance (in parallel) and takes its snapshot. */
  start(): Promise<void>;
  /** Waits (FIFO) for a free instance, health-checks it (replacing it if dead) and resets it if used. */
  lease(): Promise<Lease>;
  /** Stops every instance; pending `lease()` calls reject with ChainError. */
  stop(): Promise<void>;
  /** Current URLs, one per instance (a replaced instance gets a new URL). */
  readonly urls: string[];
  /** Process ids of the Anvil binaries, one per instance (memory measurements, fault tests). */
  readonly pids: (number | undefined)[];
  /** How many instances were booted again after failing a health check or a reset (infra retries). */
  readonly replacements: number;
  /** How many instances were booted again on schedule, after {@link LEASES_PER_INSTANCE} leases. */
  readonly rotations: number;
};

/**
 * Leases one instance serves before the pool boots it again (~0.1 s from the state file). Anvil keeps
 * a bounded number of historical states (`HISTORY_STATES` in src/world/anvil.ts) and never revisits the ones a revert abandons, so
 * the state of the snapshot's head block, which every attempt reads its window from, would be evicted
 * after a few thousand mined blocks (seen as `BlockOutOfRangeError` on a long run). A lease mines at
 * most a few dozen blocks (pre-state, rounds, then the gold run after a revert), so this many stay far
 * below the bound.
 */
export const LEASES_PER_INSTANCE = 24;

type Slot = {
  index: number;
  /** Leases handed out since the instance was booted or adopted. */
  leases: number;
  handle: AnvilHandle | undefined;
  snapshotId: string;
  /** Head block number and agent nonce at the snapshot: what every lease must start from. */
  baseline: { blockNumber: number; agentNonce: number };
  /** Used since its last reset: must be reverted before the next lease. */
  dirty: boolean;
};

/**
 * Creates a pool of Anvil instances booted from the world state file. Each instance, after boot,
 * gets the 1 s block interval and the next timestamp pinned (see {@link primeWorldClock}) and takes
 * one `evm_snapshot`. A lease is exclusive; on release the instance is marked dirty and reverted to
 * the snapshot before its next lease. An instance whose `eth_chainId` health check fails (or whose
 * revert fails) is stopped and booted again transparently; `replacements` counts these.
 *
 * @example
 * const pool = createAnvilPool({ size: 4, world: loadWorld() });
 * await pool.start();
 * const lease = await pool.lease();
 * try {
 *   // ... run one instance against lease.url
 * } finally {
 *   lease.release();
 * }
 * await pool.stop();
 */
export function createAnvilPool(parameters: CreateAnvilPoolParameters): AnvilPool {
  const stateFile = parameters.stateFile ?? worldStatePath();
  const healthTimeoutMs = parameters.healthTimeoutMs ?? 2_000;
  const attach = parameters.attach ?? [];
  const slots: Slot[] = Array.from({ length: attach.length || parameters.size }, (_, index) => ({
    index,
    handle: attach[index]
      ? {
          url: attach[index],
          port: Number(new URL(attach[index]).port),
          pid: undefined,
          stop: async () => {},
        }
      : undefined,
    snapshotId: "",
    leases: 0,
    baseline: { blockNumber: -1, agentNonce: -1 },
    dirty: false,
  }));
  const free: Slot[] = [];
  const waiters: { resolve: (slot: Slot) => void; reject: (error: unknown) => void }[] = [];
  let replacements = 0;
  let rotations = 0;
  let stopped = false;

  /** Takes the slot's snapshot and records the baseline the pre-lease check compares with. */
  async function snapshot(slot: Slot): Promise<void> {
    const url = slot.handle!.url;
    slot.snapshotId = await anvilRpc<string>(url, "evm_snapshot");
    const [blockNumber, agentNonce] = await Promise.all([
      anvilRpc<string>(url, "eth_blockNumber"),
      anvilRpc<string>(url, "eth_getTransactionCount", [parameters.world.agent.address, "latest"]),
    ]);
    slot.baseline = { blockNumber: Number(blockNumber), agentNonce: Number(agentNonce) };
    slot.dirty = false;
  }

  /**
   * The pre-lease invariant check, run before every lease (3 calls, ~1 ms): the head is the
   * snapshot's block, the agent's nonce is the snapshot's, and Anvil's pool holds no transaction
   * (pending or queued). A transaction queued by an earlier attempt (e.g. the agent's, nonce + 1,
   * waiting for the next honest transaction to fill the gap) survives `evm_revert`; it must never
   * reach the next attempt. False on any mismatch or error: the caller replaces the instance.
   */
  async function clean(slot: Slot): Promise<boolean> {
    const url = slot.handle!.url;
    try {
      const [blockNumber, agentNonce, txpool] = await Promise.all([
        anvilRpc<string>(url, "eth_blockNumber", [], healthTimeoutMs),
        anvilRpc<string>(
          url,
          "eth_getTransactionCount",
          [parameters.world.agent.address, "pending"],
          healthTimeoutMs,
        ),
        anvilRpc<{ pending: string; queued: string }>(url, "txpool_status", [], healthTimeoutMs),
        // The head's state is still held (throws when Anvil has evicted it).
        anvilRpc<string>(
          url,
          "eth_getBalance",
          [parameters.world.agent.address, `0x${slot.baseline.blockNumber.toString(16)}`],
          healthTimeoutMs,
        ),
      ]);
      return (
        Number(blockNumber) === slot.baseline.blockNumber &&
        Number(agentNonce) === slot.baseline.agentNonce &&
        Number(txpool.pending) === 0 &&
        Number(txpool.queued) === 0
      );
    } catch {
      return false;
    }
  }

  async function boot(slot: Slot): Promise<void> {
    await slot.handle?.stop();
    slot.handle = undefined;
    const handle = parameters.boot
      ? await parameters.boot()
      : // src/world/anvil.ts only when this pool boots its own chain: a run's worker leases the
        // global setup's chains and loads it only to replace a dead one.
        await (await import("./anvil.ts")).startAnvil({
          loadState: stateFile,
          chainId: parameters.world.chainId,
        });
    slot.handle = handle;
    slot.leases = 0;
    await primeWorldClock(handle.url);
    await snapshot(slot);
  }

  /**
   * Takes over an instance another process booted: same clock pin and snapshot as {@link boot}.
   * An instance that is no longer at the world head (e.g. left dirty by an earlier worker in watch
   * mode) cannot be reverted without that process's snapshot id, so it is replaced instead.
   */
  async function adopt(slot: Slot): Promise<void> {
    const head = await anvilRpc<{ number: string; timestamp: string }>(
      slot.handle!.url,
      "eth_getBlockByNumber",
      ["latest", false],
    ).catch(() => undefined);
    const { blockNumber, timestamp } = parameters.world.snapshot;
    if (!head || Number(head.number) !== blockNumber || Number(head.timestamp) !== timestamp) {
      replacements += 1;
      await boot(slot);
      return;
    }
    await primeWorldClock(slot.handle!.url);
    await snapshot(slot);
  }

  /**
   * Back to the snapshot with nothing left over: Anvil's transaction pool is outside the snapshot,
   * so pending and queued transactions are dropped before and after the revert, and automine (which
   * an attempt with direct access could have turned off) is switched back on.
   */
  async function revert(slot: Slot): Promise<void> {
    const url = slot.handle!.url;
    await anvilRpc(url, "anvil_dropAllTransactions");
    const reverted = await anvilRpc<boolean>(url, "evm_revert", [slot.snapshotId]);
    if (reverted !== true) {
      throw new ChainError(`evm_revert(${slot.snapshotId}) returned ${String(reverted)} on ${url}.`, {
        details: "The instance cannot be restored to the world snapshot; it must be replaced.",
      });
    }
    await anvilRpc(url, "anvil_dropAllTransactions");
    await anvilRpc(url, "evm_setAutomine", [true]);
    // Anvil consumes the snapshot id on revert, and the clock pin (with the next base fee) is not
    // part of the snapshot.
    await primeWorldClock(url);
    await snapshot(slot);
  }

  async function healthy(slot: Slot): Promise<boolean> {
    if (!slot.handle) return false;
    try {
      const chainId = await anvilRpc<string>(slot.handle.url, "eth_chainId", [], healthTimeoutMs);
      return Number(chainId) === parameters.world.chainId;
    } catch {
      return false;
    }
  }

  function handOut(slot: Slot): void {
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(slot);
    else free.push(slot);
  }

  async function prepare(slot: Slot): Promise<void> {
    slot.leases += 1;
    // A fork's boot provisions a whole world: its instances are replaced only when the check fails.
    if (slot.leases > LEASES_PER_INSTANCE && !parameters.boot) {
      rotations += 1;
      await boot(slot);
      slot.leases = 1;
      return;
    }
    if (!(await healthy(slot))) {
      replacements += 1;
      await boot(slot);
      return;
    }
    try {
      if (slot.dirty) await revert(slot);
    } catch {
      replacements += 1;
      await boot(slot);
      return;
    }
    if (!(await clean(slot))) {
      replacements += 1;
      await boot(slot);
    }
  }

  return {
    get urls() {
      return slots.map((slot) => slot.handle?.url ?? "");
    },
    get pids() {
      return slots.map((slot) => slot.handle?.pid);
    },
    get replacements() {
      return replacements;
    },
    get rotations() {
      return rotations;
    },
    async start() {
      await Promise.all(slots.map((slot) => (slot.handle ? adopt(slot) : boot(slot))));
      for (const slot of slots) handOut(slot);
    },
    async lease() {
      if (stopped) throw new ChainError("The Anvil pool is stopped.");
      const slot =
        free.shift() ?? (await new Promise<Slot>((resolve, reject) => waiters.push({ resolve, reject })));
      try {
        await prepare(slot);
      } catch (error) {
        // A slot that cannot even be booted again goes back unbooted; the next lease retries it.
        slot.dirty = true;
        handOut(slot);
        throw error;
      }
      let released = false;
      return {
        url: slot.handle!.url,
        index: slot.index,
        release() {
          if (released) return;
          released = true;
          slot.dirty = true;
          if (!stopped) handOut(slot);
        },
        async reset() {
          if (released) throw new ChainError("reset() called on a released lease.");
          await revert(slot);
        },
      };
    },
    async stop() {
      stopped = true;
      for (const waiter of waiters.splice(0)) waiter.reject(new ChainError("The Anvil pool was stopped."));
      await Promise.all(slots.map((slot) => slot.handle?.stop()));
    },
  };
}
