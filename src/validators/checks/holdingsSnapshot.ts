import { type Address, type PublicClient, parseAbiItem } from "viem";
import { formatUnits } from "../../expr/decimal.ts";
import { CATALOGUE } from "../../world/catalogue.ts";
import type { World } from "../../world/world.ts";
import { ERC1155_BALANCE_OF_ABI, HOLDINGS_READS_ABI, REWARD_POOL_USER_INFO_ABI } from "../abi.ts";

/**
 * The agent's holdings as data: every key the benchmark tracks, read at a block, and the changes
 * between two readings as a person reads them. The G1 check (holdings.ts) compares two readings; a
 * composite's rounds describe what each one changed.
 */

/**
 * The hard world's holdings, from the catalogue: every hard ERC-20 (key = its catalogue
 * key, read with balanceOf) and every `holdings` reader a hard entry declares.
 */
const HARD_HOLDINGS = Object.entries(CATALOGUE).flatMap(([key, e]) =>
  e.set !== "hard"
    ? []
    : [
        ...(e.token
          ? [
              {
                key,
                contract: key,
                signature: "function balanceOf(address) view returns (uint256)",
                unit: e.token.symbol,
                decimals: e.token.decimals,
              },
            ]
          : []),
        ...(e.holdings ?? []).map((h) => ({ ...h, contract: key })),
      ],
);

/**
 * The agent's holdings in the paper's world, by key, then the hard world's. Fungible amounts are wei
 * (the token's smallest unit); `qnft` is a bitmask of the test-collection ids 1–10 the agent owns,
 * `pancake_squad` is 1 if it owns PancakeSquad #1.
 */
export const PAPER_HOLDING_KEYS = [
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
export const HOLDING_KEYS: readonly string[] = [...PAPER_HOLDING_KEYS, ...HARD_HOLDINGS.map((h) => h.key)];
export type HoldingKey = (typeof PAPER_HOLDING_KEYS)[number];
export type Holdings = Record<HoldingKey, bigint> & Record<string, bigint>;

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
  const read = <T>(
    address: Address,
    fn: string,
    args: unknown[],
    a: readonly unknown[] = HOLDINGS_READS_ABI,
  ) =>
    client.readContract({ address, abi: a as never, functionName: fn, args, ...at } as never) as Promise<T>;
  const owns = async (nft: Address, id: bigint) => {
    try {
      return (await read<Address>(nft, "ownerOf", [id])).toLowerCase() === account.toLowerCase();
    } catch {
      return false; // burned or never minted
    }
  };
  const hard = HARD_HOLDINGS.map(async (h): Promise<[string, bigint]> => {
    const address = (world.contracts as Record<string, Address | undefined>)[h.contract];
    if (!address) return [h.key, 0n]; // a world built before the hard split (a fork): nothing held
    const item = parseAbiItem(h.signature) as { name: string };
    try {
      return [h.key, await read<bigint>(address, item.name, [account], [item])];
    } catch {
      // No code there: a fork of a chain the hard world was never built on (fork mode runs the
      // paper's tasks only), so nothing can be held or changed.
      return [h.key, 0n];
    }
  });
  const entries = await Promise.all([
    ...hard,
    ...PAPER_HOLDING_KEYS.map(async (key): Promise<[HoldingKey, bigint]> => {
      const token = TOKEN_OF[key];
      if (key === "bnb") return [key, await client.getBalance({ address: account, ...at })];
      if (token) return [key, await read<bigint>(c[token], "balanceOf", [account])];
      if (key === "lpwu_staked")
        return [
          key,
          (await read<bigint[]>(c.simple_reward_pool, "userInfo", [account], REWARD_POOL_USER_INFO_ABI))[0]!,
        ];
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
        await read<bigint>(
          c.erc1155_token,
          "balanceOf",
          [account, BigInt(key.slice(-1))],
          ERC1155_BALANCE_OF_ABI,
        ),
      ];
    }),
  ]);
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
  for (const h of HARD_HOLDINGS) {
    const delta = after[h.key]! - before[h.key]!;
    if (delta !== 0n)
      lines.push(
        `${h.unit}: ${delta > 0n ? "+" : "−"}${formatUnits(delta < 0n ? -delta : delta, h.decimals)}`,
      );
  }
  for (const key of PAPER_HOLDING_KEYS) {
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
