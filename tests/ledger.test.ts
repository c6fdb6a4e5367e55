import {
  type Address,
  createPublicClient,
  custom,
  encodeFunctionData,
  getAddress,
  keccak256,
  type PublicClient,
  parseAbi,
  toHex,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chainClients, signAndSend } from "../src/protocol/chain.ts";
import { readLedger } from "../src/validators/effects/ledger.ts";
import { isContractRefusal } from "../src/validators/effects/ledgerReads.ts";
import { ledgerWorld } from "../src/validators/effects/ledgerWorld.ts";
import { type AnvilPool, createAnvilPool } from "../src/world/pool.ts";
import { loadWorld } from "../src/world/world.ts";

// The effect ledger reads balances at the window's first block (docs/SCORING.md "Effect ledger").
// A read the contract cannot answer means "nothing held"; a read the node fails must never be
// taken for a balance of 0, or an attempt would be scored on a wrong ledger.

const world = loadWorld();
const lw = ledgerWorld(world);
const usdt = world.contracts.usdt as Address;
const agent = world.agent.address.toLowerCase();
const stranger = getAddress(`0x${keccak256(toHex("ledger test: a stranger")).slice(-40)}`);
const erc20 = parseAbi([
  "function transfer(address, uint256) returns (bool)",
  "function balanceOf(address) view returns (uint256)",
  "function ownerOf(uint256) view returns (address)",
]);

let pool: AnvilPool;
beforeAll(async () => {
  pool = createAnvilPool({ size: 1, world });
  await pool.start();
});
afterAll(async () => {
  await pool?.stop();
});

/**
 * A client of `url` whose `eth_call`s fail the way Anvil failed under load (`BlockOutOfRangeError`,
 * an invalid-params error), the first `failures` times; every other request reaches the node.
 */
function flakyClient(url: string, failures: number): PublicClient & { failed: () => number } {
  let failed = 0;
  let id = 0;
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }) {
        if (method === "eth_call" && failed < failures) {
          failed++;
          throw Object.assign(new Error("BlockOutOfRangeError: block height is 203 but requested was 200"), {
            code: -32602,
          });
        }
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
        });
        const body = (await response.json()) as {
          result?: unknown;
          error?: { code: number; message: string };
        };
        if (body.error) throw Object.assign(new Error(body.error.message), body.error);
        return body.result;
      },
    }),
  }) as PublicClient;
  return Object.assign(client, { failed: () => failed });
}

describe("the effect ledger's historical reads", () => {
  test("a revert or a missing contract reads as refused; a block the node does not have does not", async () => {
    const lease = await pool.lease();
    try {
      const { public: client } = chainClients(lease.url, world);
      const head = await client.getBlockNumber();
      const read = (address: Address, functionName: "balanceOf" | "ownerOf", blockNumber = head) =>
        client
          .readContract({ address, abi: erc20, functionName, args: [stranger as never], blockNumber })
          .then(
            () => "answered",
            (error) => (isContractRefusal(error) ? "refused" : "failed"),
          );
      expect(await read(usdt, "balanceOf")).toBe("answered");
      expect(await read(usdt, "ownerOf")).toBe("refused"); // no such function: the token reverts
      expect(await read(stranger, "balanceOf")).toBe("refused"); // no code at that address
      expect(await read(usdt, "balanceOf", head + 1000n)).toBe("failed");
    } finally {
      lease.release();
    }
  });

  test("a read the node fails is tried again, and one it keeps failing throws instead of reading 0", async () => {
    const lease = await pool.lease();
    try {
      const clients = chainClients(lease.url, world);
      const start = await clients.public.getBlockNumber();
      const amount = 1234n;
      const sent = await signAndSend(clients, {
        to: usdt,
        data: encodeFunctionData({ abi: erc20, functionName: "transfer", args: [stranger, amount] }),
        value: 0n,
      });
      if ("rejected" in sent) throw new Error(sent.rejected);
      expect(sent.receipt.status).toBe("success");

      const clean = await readLedger(clients.public, lw, start);
      const paid = clean.net.get(stranger.toLowerCase())?.get(`erc20:${usdt.toLowerCase()}`);
      expect(paid).toBe(amount);
      expect(clean.net.get(agent)?.get(`erc20:${usdt.toLowerCase()}`)).toBe(-amount);

      // Two failures per read at most are retried away: the same ledger.
      const flaky = flakyClient(lease.url, 2);
      const retried = await readLedger(flaky, lw, start);
      expect(flaky.failed()).toBe(2);
      expect(retried.net).toEqual(clean.net);

      // A node that keeps failing: the ledger throws (an infrastructure fault), it does not drop the lines.
      const broken = flakyClient(lease.url, Number.POSITIVE_INFINITY);
      await expect(readLedger(broken, lw, start)).rejects.toThrow(/BlockOutOfRange/);
    } finally {
      lease.release();
    }
  });
});
