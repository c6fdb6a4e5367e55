import { type Address, type PublicClient, parseAbi } from "viem";
import { formatUnits } from "../expr/decimal.ts";
import type { World } from "../world/world.ts";
import { CheckArgsError, defineCheck } from "./types.ts";

const abi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function ownerOf(uint256) view returns (address)",
  "function userInfo(address) view returns (uint256, uint256)",
]);
const erc1155 = parseAbi(["function balanceOf(address, uint256) view returns (uint256)"]);
const rewardPool = parseAbi(["function userInfo(address) view returns (uint256, uint256, uint256)"]);

/**
 * The agent's holdings of TASKS.md §2.1, by key. Fungible amounts are wei; `qnft` is a bitmask of the
 * test-collection ids 1–10 the agent owns, `pancake_squad` is 1 if it owns PancakeSquad #1.
 */
export const HOLDING_KEYS = [
  "bnb",
  "wbnb",
  "usdt",
  "busd",
  "cake",
  "t1363",
  "lpub",
  "lpwu",
  "lpwu_staked",
  "cake_staked",
  "lpub_staked",
  "qnft",
  "pancake_squad",
  "erc1155_1",
  "erc1155_2",
  "erc1155_3",
] as const;
export type HoldingKey = (typeof HOLDING_KEYS)[number];
export type Holdings = Record<HoldingKey, bigint>;

const TOKEN_OF: Partial<Record<HoldingKey, keyof World["contracts"]>> = {
  wbnb: "wbnb",
  usdt: "usdt",
  busd: "busd",
  cake: "cake",
  t1363: "erc1363_token",
  lpub: "pair_usdt_busd",
  lpwu: "pair_wbnb_usdt",
};

/** Reads every holding of `account` (default: the agent) at `blockNumber` (default: latest). */
export async function readHoldings(
  client: PublicClient,
  world: World,
  account: Address = world.agent.address,
  blockNumber?: bigint,
): Promise<Holdings> {
  const at = blockNumber === undefined ? {} : { blockNumber };
  const c = world.contracts;
  const read = <T>(address: Address, fn: string, args: unknown[], a: readonly unknown[] = abi) =>
    client.readContract({ address, abi: a as never, functionName: fn, args, ...at } as never) as Promise<T>;
  const owns = async (nft: Address, id: bigint) => {
    try {
      return (await read<Address>(nft, "ownerOf", [id])).toLowerCase() === account.toLowerCase();
    } catch {
      return false; // burned or never minted
    }
  };
  const entries = await Promise.all(
    HOLDING_KEYS.map(async (key): Promise<[HoldingKey, bigint]> => {
      const token = TOKEN_OF[key];
      if (key === "bnb") return [key, await client.getBalance({ address: account, ...at })];
      if (token) return [key, await read<bigint>(c[token], "balanceOf", [account])];
      if (key === "lpwu_staked")
        return [key, (await read<bigint[]>(c.simple_reward_pool, "userInfo", [account], rewardPool))[0]!];
      if (key === "cake_staked")
        return [key, (await read<bigint[]>(c.simple_staking, "userInfo", [account]))[0]!];
      if (key === "lpub_staked")
        return [key, (await read<bigint[]>(c.simple_lp_staking, "userInfo", [account]))[0]!];
      if (key === "qnft") {
        let mask = 0n;
        for (let id = 1n; id <= 10n; id++) if (await owns(c.erc721_token, id)) mask |= 1n << id;
        return [key, mask];
      }
      if (key === "pancake_squad") return [key, (await owns(c.pancake_squad, 1n)) ? 1n : 0n];
      return [
        key,
        await read<bigint>(c.erc1155_token, "balanceOf", [account, BigInt(key.slice(-1))], erc1155),
      ];
    }),
  );
  return Object.fromEntries(entries) as Holdings;
}

const UNITS: Record<HoldingKey, string> = {
  bnb: "BNB",
  wbnb: "WBNB",
  usdt: "USDT",
  busd: "BUSD",
  cake: "CAKE",
  t1363: "T1363",
  lpub: "USDT/BUSD LP",
  lpwu: "WBNB/USDT LP",
  lpwu_staked: "WBNB/USDT LP staked in simple_reward_pool",
  cake_staked: "CAKE staked in simple_staking",
  lpub_staked: "USDT/BUSD LP staked in simple_lp_staking",
  qnft: "QNFT ids",
  pancake_squad: "PancakeSquad #1",
  erc1155_1: "ERC-1155 id 1",
  erc1155_2: "ERC-1155 id 2",
  erc1155_3: "ERC-1155 id 3",
};

/** The holdings that changed between two readings, as a person reads them ("USDT −12.5"). */
export function describeHoldingChanges(before: Holdings, after: Holdings): string[] {
  const lines: string[] = [];
  for (const key of HOLDING_KEYS) {
    const delta = after[key] - before[key];
    if (delta === 0n) continue;
    if (key === "qnft") {
      const ids = (mask: bigint) =>
        [...Array(10).keys()].map((i) => i + 1).filter((id) => (mask >> BigInt(id)) & 1n);
      lines.push(
        `${UNITS[key]}: ${ids(before[key]).join(",") || "none"} → ${ids(after[key]).join(",") || "none"}`,
      );
    } else if (key === "pancake_squad" || key.startsWith("erc1155")) {
      lines.push(`${UNITS[key]}: ${delta > 0n ? "+" : ""}${delta}`);
    } else
      lines.push(`${UNITS[key]}: ${delta > 0n ? "+" : "−"}${formatUnits(delta < 0n ? -delta : delta, 18)}`);
  }
  return lines;
}

/**
 * G1 of TASKS.md §0: every agent holding the task does not name is unchanged at `final`; BNB, when
 * not named, may fall by exactly the fees the agent paid (G). Allowances are not holdings.
 * Args: `{ except: [holding keys the task names] }`.
 */
export const holdingsUnchanged = defineCheck({
  description:
    "G1: every agent holding the task does not name is unchanged at final (BNB may fall by the fees).",
  args: {
    except: {
      type: "array",
      items: { enum: [...HOLDING_KEYS] },
      uniqueItems: true,
      description: "the holdings the task names",
    },
  },
  example: { except: ["usdt", "busd"] },
  build: (args) => {
    const except = args.except ?? [];
    if (!Array.isArray(except) || !except.every((k) => (HOLDING_KEYS as readonly string[]).includes(k)))
      throw new CheckArgsError("except", `must list holding keys among ${HOLDING_KEYS.join(", ")}`);
    const named = new Set(except as HoldingKey[]);
    return {
      prepare: (ctx) => readHoldings(ctx.client, ctx.world),
      async evaluate(ctx, prepared) {
        const before = prepared as Holdings;
        const after = await readHoldings(ctx.client, ctx.world);
        const wrong: string[] = [];
        for (const key of HOLDING_KEYS) {
          if (named.has(key)) continue;
          const expected = key === "bnb" ? before.bnb - ctx.feesPaid : before[key];
          if (after[key] !== expected) wrong.push(`${key}: expected ${expected}, found ${after[key]}`);
        }
        return wrong.length === 0
          ? {
              passed: true,
              detail: `holdings not named by the task are unchanged (BNB less fees ${ctx.feesPaid})`,
            }
          : { passed: false, detail: `unnamed holdings changed: ${wrong.join("; ")}` };
      },
    };
  },
});
