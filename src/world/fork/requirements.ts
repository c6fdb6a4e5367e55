/**
 * What a provisioned fork is checked for (README "Fork mode"): every holding, stake, allowance and
 * contract of the snapshot read back from the chain, and the tasks that cannot run when one is
 * missing. Reads the chain only; sends nothing.
 */
import { type Abi, type Address, type PublicClient, parseEther, zeroAddress } from "viem";
import { ChainError } from "../../errors.ts";
import {
  delegateImplementationAbi,
  erc20Abi,
  erc721Abi,
  erc1155Abi,
  pairAbi,
  rewardPoolAbi,
} from "../abis.ts";
import type { AccountName, Holder } from "../catalogue.ts";
import { keysOfKind } from "../catalogueViews.ts";
import type { ContractKey, World } from "../world.ts";
import { BUILT_IN_WORLD, isAccount, LP_STOCK, lower, oneLine, type WorldLists } from "./context.ts";

/** One requirement of the snapshot checked after provisioning; tasks naming `keys` need it. */
export type Requirement = {
  id: string;
  /** `deployedContracts` keys a task names when it relies on this (see {@link tasksToSkip}). */
  keys: ContractKey[];
  ok: boolean;
  /** What was found (on failure: why it could not be provisioned). */
  detail: string;
};

/**
 * Reads back every BNB balance, holding, allowance, stake and contract state of the snapshot the
 * tasks rely on (docs/TASKS.md "Accounts and holdings"), as the lists provisioning was given say.
 * Each requirement names the `deployedContracts` keys whose tasks need it.
 *
 * @param errors the provisioning steps that failed (step name → message): a failed requirement
 *   quotes those of its steps.
 * @param lists the world that was provisioned; default the built-in one.
 */
export async function verifyRequirements(
  client: PublicClient,
  world: World,
  errors: Record<string, string> = {},
  lists: WorldLists = BUILT_IN_WORLD,
): Promise<Requirement[]> {
  const { catalogue, holdings, allowances, stakes, nativeBalances } = lists;
  const c = world.contracts;
  const A = world.agent.address;
  const out: Requirement[] = [];
  const why = (prefix: string) =>
    Object.entries(errors)
      .filter(([name]) => name.includes(prefix))
      .map(([name, message]) => `${name}: ${message}`)
      .join("; ");
  async function need(
    id: string,
    keys: ContractKey[],
    errorPrefixes: string | string[],
    check: () => Promise<string | true>,
  ) {
    let result: string | true;
    try {
      result = await check();
    } catch (error) {
      result = `could not be read (${oneLine((error as { shortMessage?: string }).shortMessage ?? (error as Error).message)})`;
    }
    const cause = result === true ? "" : [errorPrefixes].flat().map(why).filter(Boolean).join("; ");
    out.push({
      id,
      keys,
      ok: result === true,
      detail: result === true ? "ok" : `${result}${cause ? ` — ${cause}` : ""}`,
    });
  }
  const read = <T>(address: Address, abi: Abi, functionName: string, args: unknown[] = []) => {
    if (address === zeroAddress) throw new ChainError("not deployed");
    return client.readContract({ address, abi, functionName, args } as never) as Promise<T>;
  };
  const balanceIs = async (token: Address, holder: Address, expected: string, what: string) => {
    const got = await read<bigint>(token, erc20Abi, "balanceOf", [holder]);
    return got === parseEther(expected)
      ? true
      : `${what}: balanceOf is ${got} wei, expected ${parseEther(expected)}`;
  };
  const accounts: Record<AccountName, Address> = {
    agent: A,
    rich: world.rich.address,
    treasury: world.treasury.address,
  };
  const addressOf = (holder: Holder) => (isAccount(holder) ? accounts[holder] : c[holder]);
  /** The keys whose tasks need a holder: R is `rich_address`, a contract its own key. */
  const keysOf = (holder: Holder): ContractKey[] =>
    holder === "rich" ? ["rich_address"] : isAccount(holder) ? [] : [holder];
  const label = (key: ContractKey) =>
    (world.tokens as Record<string, { symbol: string }>)[key]?.symbol ?? key;

  for (const [name, amount] of Object.entries(nativeBalances) as [AccountName, string][])
    await need(`${name} holds ${amount} BNB`, keysOf(name), name, async () =>
      (await client.getBalance({ address: accounts[name] })) === parseEther(amount)
        ? true
        : `${name} BNB balance is not ${amount}`,
    );
  for (const h of holdings)
    await need(
      `${h.holder} holds ${h.amount} ${label(h.token)}`,
      [h.token, ...keysOf(h.holder)],
      [`holding ${h.holder} ${h.token}`, `probe ${h.token}`, `deploy ${h.token}`, `deploy ${h.holder}`],
      () => balanceIs(c[h.token], addressOf(h.holder), h.amount, `${h.holder} ${label(h.token)}`),
    );
  for (const key of keysOfKind("pair", catalogue) as ContractKey[])
    await need(`${key} has liquidity`, [key], key, async () => {
      const [r0, r1] = await read<[bigint, bigint, number]>(c[key], pairAbi, "getReserves");
      return r0 > 0n && r1 > 0n ? true : `${key} has no reserves`;
    });
  for (const key of new Set(holdings.filter((h) => h.token.startsWith("pair_")).map((h) => h.token)))
    await need(`treasury holds ≥ 100 LP of ${key} for pre-states`, [key], `holding`, async () => {
      const stock = await read<bigint>(c[key], erc20Abi, "balanceOf", [world.treasury.address]);
      return stock >= LP_STOCK ? true : `treasury holds ${stock} wei of ${key}`;
    });
  for (const s of stakes)
    await need(
      `${s.holder} stakes ${s.amount} ${label(s.token)} in ${s.pool}`,
      [s.pool, s.token, ...keysOf(s.holder)],
      [`stake ${s.holder} ${s.pool}`, `deploy ${s.pool}`],
      async () => {
        const abi = catalogue[s.pool]?.abi ?? rewardPoolAbi;
        const [staked] = await read<bigint[]>(c[s.pool], abi, "userInfo", [addressOf(s.holder)]);
        return staked === parseEther(s.amount)
          ? true
          : `${s.holder}'s stake is ${staked} wei, expected ${parseEther(s.amount)}`;
      },
    );
  for (const key of keysOfKind("deployed", catalogue) as ContractKey[])
    await need(`${key} deployed`, [key], `deploy ${key}`, async () =>
      c[key] !== zeroAddress && (await client.getCode({ address: c[key] })) ? true : `${key} has no code`,
    );
  // The hard world: its build steps depend on one another (tokens first, then the pools, vaults and
  // markets of those tokens), so one that failed leaves no hard task's world as the build makes it:
  // every task naming a hard key relies on all of them.
  const hardKeys = Object.keys(catalogue).filter((key) => catalogue[key]!.set === "hard") as ContractKey[];
  if (hardKeys.length > 0)
    await need("hard world built", hardKeys, "hard world:", async () => {
      const failed = Object.keys(errors).filter((name) => name.startsWith("hard world:"));
      return failed.length === 0 ? true : `${failed.length} of its build steps failed`;
    });
  for (const key of keysOfKind("built", catalogue) as ContractKey[])
    await need(`${key} built`, [key], "hard world", async () =>
      c[key] !== zeroAddress && (await client.getCode({ address: c[key] })) ? true : `${key} has no code`,
    );
  for (const a of allowances)
    await need(
      `${a.owner} approved ${a.spender} for ${a.amount} ${label(a.token)}`,
      [a.token, ...keysOf(a.owner), ...keysOf(a.spender)],
      `allowance ${a.owner} ${a.token}`,
      async () => {
        const allowance = await read<bigint>(c[a.token], erc20Abi, "allowance", [
          accounts[a.owner],
          addressOf(a.spender),
        ]);
        return allowance === parseEther(a.amount)
          ? true
          : `allowance(${a.owner}, ${a.spender}) is ${allowance}`;
      },
    );
  const { erc721AgentTokenIds: qnftIds, pancakeSquadAgentTokenId: squadId } = world.constants;
  await need(`agent owns QNFT ${qnftIds[0]}–${qnftIds.at(-1)}`, ["erc721_token"], "erc721", async () => {
    for (const id of qnftIds)
      if (lower(await read<Address>(c.erc721_token, erc721Abi, "ownerOf", [BigInt(id)])) !== lower(A))
        return `QNFT #${id} is not the agent's`;
    return true;
  });
  await need(`agent owns PancakeSquad #${squadId}`, ["pancake_squad"], "PancakeSquad", async () =>
    lower(await read<Address>(c.pancake_squad, erc721Abi, "ownerOf", [BigInt(squadId)])) === lower(A)
      ? true
      : `PancakeSquad #${squadId} is not the agent's`,
  );
  await need("agent holds ERC-1155 ids 1–3", ["erc1155_token"], "erc1155", async () => {
    for (const [id, units] of Object.entries(world.constants.erc1155AgentBalances))
      if ((await read<bigint>(c.erc1155_token, erc1155Abi, "balanceOf", [A, BigInt(id)])) !== BigInt(units))
        return `ERC-1155 id ${id} is not ${units}`;
    return true;
  });
  const values = world.constants.delegateCallValues;
  await need(
    `proxy holds ${values.proxy}, implementation ${values.implementation}`,
    ["delegate_call_proxy", "delegate_call_implementation"],
    "delegate",
    async () => {
      const proxy = await read<bigint>(c.delegate_call_proxy, delegateImplementationAbi, "getValue");
      const impl = await read<bigint>(c.delegate_call_implementation, delegateImplementationAbi, "getValue");
      return proxy === BigInt(values.proxy) && impl === BigInt(values.implementation)
        ? true
        : `getValue() is ${proxy} / ${impl}`;
    },
  );
  return out;
}

/** A task spec as far as {@link tasksToSkip} reads it: its id and its file's text. */
export type TaskText = { id: string; text: string };

/**
 * The tasks whose pre-state cannot be provisioned: a task relies on a failed requirement when its
 * spec (templates, checks, pre-state, reference answer) names one of the requirement's
 * `deployedContracts` keys (`contracts.<key>`, `deployedContracts.<key>`; `rich` for R).
 *
 * @returns task id → reason (the first failed requirement it relies on).
 */
export function tasksToSkip(
  requirements: readonly Requirement[],
  tasks: readonly TaskText[],
): Record<string, string> {
  const failed = requirements.filter((r) => !r.ok);
  const skipped: Record<string, string> = {};
  for (const task of tasks) {
    const named = new Set(
      [...task.text.matchAll(/contracts\s*(?:\.\s*|\[\s*["'])([a-z0-9_]+)/gi)].map((m) =>
        m[1]!.toLowerCase(),
      ),
    );
    if (/\brich\b/.test(task.text)) named.add("rich_address");
    const blocker = failed.find((r) => r.keys.length === 0 || r.keys.some((k) => named.has(k)));
    if (blocker) skipped[task.id] = `fork pre-state not provisioned: ${blocker.id}: ${blocker.detail}`;
  }
  return skipped;
}
