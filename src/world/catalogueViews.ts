/**
 * Derived views of the world catalogue (docs/TASKS.md "The world catalogue"): its keys in prompt
 * order, canonical addresses, token and storage-slot tables, the deployment order of own contracts
 * and their resolved arguments, the catalogue's consistency problems and world.json `constants`.
 * Pure functions of a catalogue (default the built-in {@link CATALOGUE}); the data is in catalogue.ts.
 */
import { type Address, parseEther } from "viem";
import { ALLOWANCES, CATALOGUE, type Catalogue, HOLDINGS, STAKES, WORLD_FACTS } from "./catalogue.ts";
import type { AccountName, Arg, Placement, TokenMeta } from "./catalogueTypes.ts";

/** The keys of a catalogue, in prompt order. */
export function catalogueKeys<C extends Catalogue>(catalogue: C): (keyof C & string)[] {
  return Object.keys(catalogue) as (keyof C & string)[];
}

/** Keys whose entry is placed at a canonical mainnet address, with those addresses. */
export function canonicalAddresses(catalogue: Catalogue = CATALOGUE): Record<string, Address> {
  const out: Record<string, Address> = {};
  for (const [key, entry] of Object.entries(catalogue))
    if (entry.place.kind === "canonical") out[key] = entry.place.address;
  return out;
}

/** The `deployedContracts` keys of one placement kind, in catalogue order. */
export function keysOfKind(kind: Placement["kind"], catalogue: Catalogue = CATALOGUE): string[] {
  return Object.keys(catalogue).filter((key) => catalogue[key]!.place.kind === kind);
}

/** Key → token metadata of the token entries (world.json `tokens`), in catalogue order. */
export function tokenTable(catalogue: Catalogue = CATALOGUE): Record<string, TokenMeta> {
  const out: Record<string, TokenMeta> = {};
  for (const [key, entry] of Object.entries(catalogue))
    if (entry.token)
      out[key] = { symbol: entry.token.symbol, name: entry.token.name, decimals: entry.token.decimals };
  return out;
}

/** Key → storage slots (world.json `storageSlots`): token entries first, then the others. */
export function storageSlotTable(catalogue: Catalogue = CATALOGUE): Record<string, Record<string, number>> {
  const entries = Object.entries(catalogue).filter(([, entry]) => entry.slots);
  const ordered = [...entries.filter(([, e]) => e.token), ...entries.filter(([, e]) => !e.token)];
  return Object.fromEntries(ordered.map(([key, entry]) => [key, { ...entry.slots! }]));
}

// Array.isArray does not narrow readonly arrays.
const isArgList = (arg: object): arg is readonly Arg[] => Array.isArray(arg);

/** Catalogue keys an argument list names (`{ contract: key }`), nested lists included. */
export function argDependencies(args: readonly Arg[] = []): string[] {
  return args.flatMap((arg): string[] =>
    typeof arg === "object" && isArgList(arg)
      ? argDependencies(arg)
      : typeof arg === "object" && arg !== null && "contract" in arg
        ? [arg.contract]
        : [],
  );
}

/**
 * The `deployed` entries in deployment order: catalogue order, except that an entry whose
 * arguments name another `deployed` entry waits until that one is deployed (the first ready entry
 * in catalogue order goes next).
 *
 * @throws {Error} on a dependency cycle.
 */
export function deploymentOrder(catalogue: Catalogue = CATALOGUE): string[] {
  const pending = keysOfKind("deployed", catalogue);
  const own = new Set(pending);
  const done = new Set<string>();
  const order: string[] = [];
  while (pending.length) {
    const index = pending.findIndex((key) => {
      const place = catalogue[key]!.place as Extract<Placement, { kind: "deployed" }>;
      return argDependencies(place.args).every((dep) => !own.has(dep) || done.has(dep));
    });
    if (index < 0)
      throw new Error(`Catalogue: constructor arguments form a cycle among ${pending.join(", ")}.`);
    const [key] = pending.splice(index, 1);
    done.add(key!);
    order.push(key!);
  }
  return order;
}

/** What an {@link Arg} resolves against. */
export type ArgContext = {
  accounts: Record<AccountName, Address>;
  contracts: Readonly<Record<string, Address>>;
};

/**
 * Resolves constructor/initializer arguments to ABI values.
 *
 * @throws {Error} naming the key when an argument names a contract that has no address yet.
 */
export function resolveArgs(args: readonly Arg[] = [], context: ArgContext): unknown[] {
  return args.map(function resolve(arg: Arg): unknown {
    if (typeof arg !== "object" || arg === null) return arg;
    if (isArgList(arg)) return arg.map(resolve);
    if ("contract" in arg) {
      const address = context.contracts[arg.contract];
      if (!address) throw new Error(`Catalogue argument names ${arg.contract}, which has no address yet.`);
      return address;
    }
    if ("account" in arg) return context.accounts[arg.account];
    return parseEther(arg.ether);
  });
}

/**
 * Checks a catalogue's cross-references: every `{ contract }` argument, pair token, `delegatesTo`,
 * holding, allowance and stake names a key of the catalogue.
 *
 * @returns one line per broken reference (empty when consistent).
 */
export function catalogueProblems(catalogue: Catalogue = CATALOGUE): string[] {
  const problems: string[] = [];
  const known = (key: string) => key in catalogue;
  const holder = (h: string) => h === "agent" || h === "rich" || h === "treasury" || known(h);
  for (const [key, entry] of Object.entries(catalogue)) {
    const place = entry.place;
    const refs =
      place.kind === "deployed"
        ? argDependencies(place.args)
        : place.kind === "pair"
          ? [place.tokenA, place.tokenB]
          : place.kind === "canonical" && typeof place.install === "object"
            ? argDependencies(
                "initialize" in place.install ? place.install.initialize : place.install.immutables,
              )
            : [];
    if (entry.delegatesTo) refs.push(entry.delegatesTo);
    for (const ref of refs) if (!known(ref)) problems.push(`${key} names unknown key ${ref}`);
  }
  for (const h of HOLDINGS)
    if (!known(h.token) || !holder(h.holder)) problems.push(`holding ${h.holder} ${h.token}`);
  for (const a of ALLOWANCES)
    if (!known(a.token) || !holder(a.spender)) problems.push(`allowance ${a.owner} ${a.token}`);
  for (const s of STAKES) if (!known(s.pool) || !known(s.token)) problems.push(`stake ${s.pool} ${s.token}`);
  return problems;
}

/**
 * world.json `constants` from the catalogue plus the two values read off the chain.
 *
 * @param P USDT per WBNB in `pair_wbnb_usdt` (18 digits, truncated; see {@link formatRatio}).
 * @param stakeTimestamp block timestamp of the agent's stake (seconds).
 * @param lists the stakes and allowances provisioned (default the built-in ones): the agent's staked LP
 *   and rich's USDT allowance to the agent are read from them.
 */
export function worldConstants(
  P: string,
  stakeTimestamp: number,
  lists: { stakes: typeof STAKES; allowances: typeof ALLOWANCES } = {
    stakes: STAKES,
    allowances: ALLOWANCES,
  },
) {
  const stake = lists.stakes.find((s) => s.holder === "agent" && s.pool === "simple_reward_pool");
  const allowance = lists.allowances.find(
    (a) => a.owner === "rich" && a.spender === "agent" && a.token === "usdt",
  );
  return {
    P,
    blockTimeSeconds: 1 as const,
    rewardPerLpPerSecondWei: WORLD_FACTS.rewardPerLpPerSecondWei,
    flashLoanFee: { ...WORLD_FACTS.flashLoanFee },
    agentStakedLpwuWei: parseEther(stake?.amount ?? "0").toString(),
    stakeTimestamp,
    richAllowanceToAgentWei: parseEther(allowance?.amount ?? "0").toString(),
    erc721TokenUriPrefix: WORLD_FACTS.erc721TokenUriPrefix,
    erc721AgentTokenIds: [...WORLD_FACTS.erc721AgentTokenIds],
    pancakeSquadAgentTokenId: WORLD_FACTS.pancakeSquadAgentTokenId,
    erc1155AgentBalances: { ...WORLD_FACTS.erc1155AgentBalances },
    delegateCallValues: { ...WORLD_FACTS.delegateCallValues },
  };
}

/** numerator/denominator as a decimal string with `digits` fractional digits, truncated (world.json `P`). */
export function formatRatio(numerator: bigint, denominator: bigint, digits = 18): string {
  const scaled = (numerator * 10n ** BigInt(digits)) / denominator;
  const text = scaled.toString().padStart(digits + 1, "0");
  const fraction = text.slice(-digits).replace(/0+$/, "");
  return fraction ? `${text.slice(0, -digits)}.${fraction}` : text.slice(0, -digits);
}
