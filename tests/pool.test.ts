import { createPublicClient, createWalletClient, defineChain, http, parseEther, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainError } from "../src/errors.ts";
import { erc20Abi, routerAbi } from "../src/world/abis.ts";
import { anvilRpc, createAnvilPool, type Lease } from "../src/world/pool.ts";
import { minedReceipt } from "../src/world/receipt.ts";
import { loadWorld } from "../src/world/world.ts";

const world = loadWorld();
const c = world.contracts;
const A = world.agent.address;
const chain = defineChain({
  id: 56,
  name: "world",
  nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1"] } },
});

/** Everything a revert must restore: balances, nonce, raw storage, head number and timestamp. */
async function fingerprint(url: string) {
  const client = createPublicClient({ chain, transport: http(url) });
  const head = await client.getBlock();
  const slot0 = toHex(world.storageSlots.simple_counter.count, { size: 32 });
  return {
    bnb: await client.getBalance({ address: A }),
    usdt: await client.readContract({ address: c.usdt, abi: erc20Abi, functionName: "balanceOf", args: [A] }),
    pairUsdt: await client.readContract({
      address: c.usdt,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [c.pair_wbnb_usdt],
    }),
    nonce: await client.getTransactionCount({ address: A }),
    counterSlot: await client.getStorageAt({ address: c.simple_counter, slot: slot0 }),
    blockNumber: head.number,
    timestamp: head.timestamp,
  };
}

/** Swaps 0.01 BNB as the agent and returns the block the swap was mined in. */
async function swap(url: string) {
  const client = createPublicClient({ chain, transport: http(url), pollingInterval: 10 });
  const wallet = createWalletClient({
    account: privateKeyToAccount(world.agent.privateKey),
    chain,
    transport: http(url),
  });
  const hash = await wallet.writeContract({
    address: c.pancake_router,
    abi: routerAbi,
    functionName: "swapExactETHForTokens",
    args: [1n, [c.wbnb, c.usdt], A, BigInt(world.snapshot.timestamp + 600)],
    value: parseEther("0.01"),
  });
  const receipt = await minedReceipt(client, hash);
  expect(receipt.status).toBe("success");
  return client.getBlock({ blockNumber: receipt.blockNumber });
}

/** Changes balances, nonce, storage, height and time in as many ways as a task might. */
async function scribble(url: string) {
  await swap(url);
  const slot0 = toHex(world.storageSlots.simple_counter.count, { size: 32 });
  await anvilRpc(url, "anvil_setStorageAt", [c.simple_counter, slot0, toHex(77n, { size: 32 })]);
  await anvilRpc(url, "anvil_setBalance", [A, toHex(parseEther("3"))]);
  await anvilRpc(url, "evm_increaseTime", [5000]);
  await anvilRpc(url, "anvil_mine", [toHex(25)]);
}

describe("Anvil pool", () => {
  const pool = createAnvilPool({ size: 2, world });

  beforeAll(async () => {
    await pool.start();
  });

  afterAll(async () => {
    await pool.stop();
  });

  it("boots every instance at the world snapshot on its own port", async () => {
    expect(pool.urls).toHaveLength(2);
    expect(new Set(pool.urls).size).toBe(2);
    for (const url of pool.urls) {
      const print = await fingerprint(url);
      expect(print.blockNumber).toBe(BigInt(world.snapshot.blockNumber));
      expect(print.timestamp).toBe(BigInt(world.snapshot.timestamp));
      expect(print.bnb).toBe(parseEther("100"));
    }
  });

  it("mines the first block one second after the snapshot, whatever the wall clock says", async () => {
    const lease = await pool.lease();
    try {
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const block = await swap(lease.url);
      expect(block.number).toBe(BigInt(world.snapshot.blockNumber + 1));
      expect(block.timestamp).toBe(BigInt(world.snapshot.timestamp + 1));
      const next = await swap(lease.url);
      expect(next.timestamp).toBe(block.timestamp + 1n);
    } finally {
      lease.release();
    }
  });

  it("reset restores balances, nonce, storage, block number and timestamp exactly", async () => {
    const lease = await pool.lease();
    try {
      const before = await fingerprint(lease.url);
      await scribble(lease.url);
      expect(await fingerprint(lease.url)).not.toEqual(before);
      await lease.reset();
      expect(await fingerprint(lease.url)).toEqual(before);
      // Reset twice in a row: Anvil consumed the first snapshot id, so the pool must have taken a new one.
      await scribble(lease.url);
      await lease.reset();
      expect(await fingerprint(lease.url)).toEqual(before);
      const block = await swap(lease.url);
      expect(block.timestamp).toBe(BigInt(world.snapshot.timestamp + 1));
    } finally {
      lease.release();
    }
  });

  it("hands a released instance to the next user already reverted", async () => {
    const first = await pool.lease();
    const second = await pool.lease();
    const clean = await fingerprint(second.url);
    await scribble(first.url);
    const dirtyUrl = first.url;
    first.release();
    second.release();
    const leases = [await pool.lease(), await pool.lease()];
    try {
      const again = leases.find((lease) => lease.url === dirtyUrl)!;
      expect(await fingerprint(again.url)).toEqual(clean);
    } finally {
      for (const lease of leases) lease.release();
    }
  });

  it("gives each instance to one user at a time, waiters first-in first-out", async () => {
    const held = [await pool.lease(), await pool.lease()];
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) =>
      pool.lease().then((lease) => {
        order.push(n);
        return lease;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    held[0].release();
    const third = await waiting[0];
    expect(third.url).toBe(held[0].url);
    expect(order).toEqual([1]);
    held[1].release();
    const fourth = await waiting[1];
    third.release();
    const fifth = await waiting[2];
    expect(order).toEqual([1, 2, 3]);
    fourth.release();
    fifth.release();
    held[0].release(); // idempotent: no second hand-out
    const leases: Lease[] = [await pool.lease(), await pool.lease()];
    expect(new Set(leases.map((lease) => lease.index)).size).toBe(2);
    for (const lease of leases) lease.release();
  });

  it("raises ChainError when evm_revert returns false, then replaces that instance on the next lease", async () => {
    const lease = await pool.lease();
    // Consume every snapshot id behind the pool's back, so its own revert returns false.
    for (let id = 0; id < 32; id++) await anvilRpc(lease.url, "evm_revert", [toHex(id)]);
    await scribble(lease.url);
    await expect(lease.reset()).rejects.toThrow(ChainError);
    await expect(lease.reset()).rejects.toThrow(/evm_revert\(0x[0-9a-f]+\) returned false/);
    const replacementsBefore = pool.replacements;
    const index = lease.index;
    lease.release();
    const leases = [await pool.lease(), await pool.lease()];
    try {
      const same = leases.find((l) => l.index === index)!;
      expect(pool.replacements).toBe(replacementsBefore + 1);
      expect((await fingerprint(same.url)).blockNumber).toBe(BigInt(world.snapshot.blockNumber));
    } finally {
      for (const l of leases) l.release();
    }
  });

  it("replaces a killed instance transparently", async () => {
    const replacementsBefore = pool.replacements;
    const [pid] = pool.pids;
    const [oldUrl] = pool.urls;
    process.kill(pid!, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const leases = [await pool.lease(), await pool.lease()];
    try {
      expect(pool.replacements).toBe(replacementsBefore + 1);
      expect(pool.urls).not.toContain(oldUrl);
      for (const lease of leases) {
        expect(Number(await anvilRpc(lease.url, "eth_chainId"))).toBe(56);
        const print = await fingerprint(lease.url);
        expect(print.bnb).toBe(parseEther("100"));
        expect(print.blockNumber).toBe(BigInt(world.snapshot.blockNumber));
      }
      const block = await swap(leases[0].url);
      expect(block.timestamp).toBe(BigInt(world.snapshot.timestamp + 1));
    } finally {
      for (const lease of leases) lease.release();
    }
  });

  it("adopts instances booted by another process, replacing one that is not at the world head", async () => {
    const owner = createAnvilPool({ size: 2, world });
    await owner.start();
    const [clean, dirty] = owner.urls;
    await scribble(dirty);
    const adopter = createAnvilPool({ size: 0, world, attach: owner.urls });
    try {
      await adopter.start();
      expect(adopter.urls[0]).toBe(clean);
      expect(adopter.urls[1]).not.toBe(dirty);
      expect(adopter.replacements).toBe(1);
      const leases = [await adopter.lease(), await adopter.lease()];
      for (const lease of leases) {
        expect((await fingerprint(lease.url)).blockNumber).toBe(BigInt(world.snapshot.blockNumber));
        await scribble(lease.url);
        lease.release();
      }
      const again = [await adopter.lease(), await adopter.lease()];
      for (const lease of again) {
        expect((await fingerprint(lease.url)).bnb).toBe(parseEther("100"));
        lease.release();
      }
    } finally {
      await adopter.stop();
    }
    // The adopter never stops instances it did not start.
    expect(Number(await anvilRpc(clean, "eth_chainId"))).toBe(56);
    await owner.stop();
  });

  it("an agent transaction queued on Anvil (nonce + 1, not mined) does not outlive the lease", async () => {
    // What a module with direct access to Anvil could have done: queue a transfer of the agent's
    // BNB behind a nonce gap, so the next honest transaction on this chain fills the gap and
    // releases it. The harness's own client plays the cheat here.
    const thief = "0x000000000000000000000000000000000000dead";
    const first = await pool.lease();
    const url = first.url;
    const nonce = Number(await anvilRpc<string>(url, "eth_getTransactionCount", [A, "latest"]));
    await anvilRpc(url, "anvil_impersonateAccount", [A]);
    await anvilRpc(url, "evm_setAutomine", [false]);
    await anvilRpc(url, "eth_sendTransaction", [
      { from: A, to: thief, value: toHex(parseEther("1")), nonce: toHex(nonce + 1), gas: "0x5208" },
    ]);
    const queued = await anvilRpc<{ pending: string; queued: string }>(url, "txpool_status");
    expect(Number(queued.pending) + Number(queued.queued)).toBe(1);
    first.release();
    const leases = [await pool.lease(), await pool.lease()];
    try {
      const again = leases.find((lease) => lease.url === url)!;
      expect(await anvilRpc(again.url, "txpool_status")).toEqual({ pending: "0x0", queued: "0x0" });
      // The next honest attempt: its transaction is mined at once (automine is back) and nothing rides along.
      const block = await swap(again.url);
      expect(block.number).toBe(BigInt(world.snapshot.blockNumber + 1));
      const client = createPublicClient({ chain, transport: http(again.url) });
      expect(await client.getBalance({ address: thief })).toBe(0n);
      expect(await client.getTransactionCount({ address: A })).toBe(nonce + 1);
    } finally {
      for (const lease of leases) lease.release();
    }
  });

  it("replaces an instance the pre-lease check finds off its snapshot (a block, a queued tx) before leasing it", async () => {
    const local = createAnvilPool({ size: 1, world });
    await local.start();
    try {
      // Not dirty (never leased), so no revert runs: only the pre-lease check can notice.
      const [url] = local.urls;
      await anvilRpc(url, "anvil_mine", ["0x1"]);
      const lease = await local.lease();
      expect(local.replacements).toBe(1);
      expect(lease.url).not.toBe(url);
      expect((await fingerprint(lease.url)).blockNumber).toBe(BigInt(world.snapshot.blockNumber));
      lease.release();
      const second = await local.lease();
      second.release();
      expect(local.replacements).toBe(1); // a clean instance passes the check
    } finally {
      await local.stop();
    }
  });

  it("rejects waiters when stopped", async () => {
    const local = createAnvilPool({ size: 1, world });
    await local.start();
    const held = await local.lease();
    const rejected = expect(local.lease()).rejects.toThrow(ChainError);
    await local.stop();
    await rejected;
    held.release();
    await expect(local.lease()).rejects.toThrow(/stopped/);
  });
});
