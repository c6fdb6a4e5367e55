/**
 * Finding a token's balance and allowance storage slots on a chain whose source we do not have
 * (docs/TASKS.md "Fork provisioning"): write a marker into a candidate slot with `anvil_setStorageAt`, call
 * `balanceOf` / `allowance`, restore the slot; the candidate whose marker comes back is the slot.
 *
 * Candidates: declaration slot `s` in 0..{@link MAX_PROBE_SLOT}, both mapping layouts
 * - Solidity: `keccak256(abi.encode(key, s))`,
 * - Vyper:    `keccak256(abi.encode(s, key))`,
 * and for balances a struct offset 0..{@link MAX_STRUCT_OFFSET} added to the hashed key (a
 * `mapping(address => Account)` whose balance is a later member). `eth_createAccessList` on the
 * `balanceOf` call names the storage keys the token really reads; those candidates are tried first,
 * so on a remote fork probing costs a few round trips instead of hundreds.
 */
import {
  type Address,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  numberToHex,
  pad,
  parseAbi,
  toHex,
} from "viem";
import { ChainError } from "../../errors.ts";
import { anvilRpc } from "../pool.ts";

/** Highest declaration slot probed. */
export const MAX_PROBE_SLOT = 50;
/** Highest struct member offset probed for balances (0 = the mapping's value itself). */
export const MAX_STRUCT_OFFSET = 3;

/** How a mapping hashes its key with its declaration slot. */
export type MappingLayout = "solidity" | "vyper";

/** Where `balanceOf(holder)` lives: `hash(holder, slot) + offset` in the token's own storage. */
export type BalanceSlot = { slot: number; layout: MappingLayout; offset: number };

/** Where `allowance(owner, spender)` lives: the nested mapping at `slot`. */
export type AllowanceSlot = { slot: number; layout: MappingLayout };

const erc20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function allowance(address, address) view returns (uint256)",
]);

/** Accounts used only as probe keys: nobody holds their keys, their balances are zero. */
const PROBE_HOLDER = getAddress(`0x${keccak256(toHex("evm-questbench/fork/probe-holder")).slice(26)}`);
const PROBE_SPENDER = getAddress(`0x${keccak256(toHex("evm-questbench/fork/probe-spender")).slice(26)}`);
/** Distinctive values no real balance has (and that differ, so a stale read cannot pass twice). */
const MARKERS = [0x5eedc0ffee_0ddba11n * 10n ** 9n + 7n, 0xbadc0de_f00dn * 10n ** 11n + 13n];

/** The storage key of `mapping[key]` declared at `slot`. */
export function mappingKey(layout: MappingLayout, slot: number | Hex, key: Address | Hex): Hex {
  const s = typeof slot === "number" ? BigInt(slot) : BigInt(slot);
  const k = BigInt(key);
  const encoded =
    layout === "solidity"
      ? encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [k, s])
      : encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [s, k]);
  return keccak256(encoded);
}

const addOffset = (key: Hex, offset: number): Hex =>
  pad(numberToHex((BigInt(key) + BigInt(offset)) % 2n ** 256n), { size: 32 });

/** Storage key of `holder`'s balance under `found`. */
export function balanceStorageKey(found: BalanceSlot, holder: Address): Hex {
  return addOffset(mappingKey(found.layout, found.slot, holder), found.offset);
}

/** Storage key of `allowance(owner, spender)` under `found` (outer key owner, inner key spender). */
export function allowanceStorageKey(found: AllowanceSlot, owner: Address, spender: Address): Hex {
  return mappingKey(found.layout, mappingKey(found.layout, found.slot, owner), spender);
}

async function readUint(url: string, token: Address, data: Hex, fn: "balanceOf" | "allowance") {
  try {
    const raw = await anvilRpc<Hex>(url, "eth_call", [{ to: token, data }, "latest"]);
    return decodeFunctionResult({ abi: erc20, functionName: fn, data: raw }) as bigint;
  } catch {
    return undefined; // a candidate that breaks the call (e.g. a packed field) is simply not it
  }
}

/** Writes each marker at `key`, reads through `data`, restores the slot; true iff every marker reads back. */
async function markerReadsBack(
  url: string,
  token: Address,
  key: Hex,
  data: Hex,
  fn: "balanceOf" | "allowance",
): Promise<boolean> {
  const original = await anvilRpc<Hex>(url, "eth_getStorageAt", [token, key, "latest"]);
  try {
    for (const marker of MARKERS) {
      await anvilRpc(url, "anvil_setStorageAt", [token, key, pad(numberToHex(marker), { size: 32 })]);
      if ((await readUint(url, token, data, fn)) !== marker) return false;
    }
    return true;
  } finally {
    await anvilRpc(url, "anvil_setStorageAt", [token, key, pad(original, { size: 32 })]);
  }
}

/** Storage keys of `token` that the call reads, by `eth_createAccessList` (empty when unsupported). */
async function accessedKeys(url: string, token: Address, data: Hex): Promise<Set<string>> {
  try {
    const result = await anvilRpc<{ accessList: { address: string; storageKeys: string[] }[] }>(
      url,
      "eth_createAccessList",
      [{ to: token, data }, "latest"],
    );
    return new Set(
      result.accessList
        .filter((entry) => entry.address.toLowerCase() === token.toLowerCase())
        .flatMap((entry) => entry.storageKeys.map((k) => k.toLowerCase())),
    );
  } catch {
    return new Set();
  }
}

/** Candidates in probe order: those the call is seen to read first, then the rest of the grid. */
function ordered<T>(grid: { key: Hex; found: T }[], seen: Set<string>) {
  return [
    ...grid.filter((c) => seen.has(c.key.toLowerCase())),
    ...grid.filter((c) => !seen.has(c.key.toLowerCase())),
  ];
}

/** Parameters of {@link findBalanceSlot}: the direct (cheat-enabled) Anvil URL and the token. */
export type FindBalanceSlotParameters = { url: string; token: Address };
/** The slot found and how many candidates were written before it matched. */
export type FindBalanceSlotReturnType = BalanceSlot & { candidatesTried: number };

/**
 * Finds where `token` keeps `balanceOf(holder)` by probing (module doc). The token's storage is
 * left as it was.
 *
 * @throws {ChainError} when no candidate of the grid (slots 0–50 × Solidity/Vyper × offsets 0–3)
 *   reads back, e.g. a rebasing token whose balance is computed, or a balance packed with other fields.
 * @example
 * const slot = await findBalanceSlot({ url: anvil.url, token: usdt });
 * await writeTokenBalance({ url: anvil.url, token: usdt, slot, holder: agent, amount: 10n ** 21n });
 */
export async function findBalanceSlot(
  parameters: FindBalanceSlotParameters,
): Promise<FindBalanceSlotReturnType> {
  const { url, token } = parameters;
  const data = encodeFunctionData({ abi: erc20, functionName: "balanceOf", args: [PROBE_HOLDER] });
  const grid: { key: Hex; found: BalanceSlot }[] = [];
  for (let offset = 0; offset <= MAX_STRUCT_OFFSET; offset++)
    for (let slot = 0; slot <= MAX_PROBE_SLOT; slot++)
      for (const layout of ["solidity", "vyper"] as const)
        grid.push({
          key: balanceStorageKey({ slot, layout, offset }, PROBE_HOLDER),
          found: { slot, layout, offset },
        });
  let tried = 0;
  for (const candidate of ordered(grid, await accessedKeys(url, token, data))) {
    tried += 1;
    if (await markerReadsBack(url, token, candidate.key, data, "balanceOf"))
      return { ...candidate.found, candidatesTried: tried };
  }
  throw new ChainError(`No balance slot of token ${token} found by probing.`, {
    details: `Tried slots 0–${MAX_PROBE_SLOT}, Solidity and Vyper mapping layouts, struct offsets 0–${MAX_STRUCT_OFFSET}; balanceOf never returned the marker (a computed or packed balance).`,
  });
}

/** Parameters of {@link findAllowanceSlot}. */
export type FindAllowanceSlotParameters = { url: string; token: Address };
export type FindAllowanceSlotReturnType = AllowanceSlot & { candidatesTried: number };

/**
 * Finds where `token` keeps `allowance(owner, spender)` (nested mapping, owner outer) by probing
 * slots 0–50 in both layouts.
 *
 * @throws {ChainError} when no candidate reads back.
 */
export async function findAllowanceSlot(
  parameters: FindAllowanceSlotParameters,
): Promise<FindAllowanceSlotReturnType> {
  const { url, token } = parameters;
  const data = encodeFunctionData({
    abi: erc20,
    functionName: "allowance",
    args: [PROBE_HOLDER, PROBE_SPENDER],
  });
  const grid: { key: Hex; found: AllowanceSlot }[] = [];
  for (let slot = 0; slot <= MAX_PROBE_SLOT; slot++)
    for (const layout of ["solidity", "vyper"] as const)
      grid.push({
        key: allowanceStorageKey({ slot, layout }, PROBE_HOLDER, PROBE_SPENDER),
        found: { slot, layout },
      });
  let tried = 0;
  for (const candidate of ordered(grid, await accessedKeys(url, token, data))) {
    tried += 1;
    if (await markerReadsBack(url, token, candidate.key, data, "allowance"))
      return { ...candidate.found, candidatesTried: tried };
  }
  throw new ChainError(`No allowance slot of token ${token} found by probing.`, {
    details: `Tried slots 0–${MAX_PROBE_SLOT} in Solidity and Vyper nested-mapping layouts.`,
  });
}

/** Parameters of {@link writeTokenBalance}. `amount` is wei (the token's base units). */
export type WriteTokenBalanceParameters = {
  url: string;
  token: Address;
  slot: BalanceSlot;
  holder: Address;
  amount: bigint;
};

/**
 * Sets `token.balanceOf(holder)` to exactly `amount` by a storage write (fork-mode funding; the
 * token's totalSupply is not changed) and reads it back.
 *
 * @throws {ChainError} when balanceOf does not then return `amount`.
 */
export async function writeTokenBalance(parameters: WriteTokenBalanceParameters): Promise<void> {
  const { url, token, slot, holder, amount } = parameters;
  await anvilRpc(url, "anvil_setStorageAt", [
    token,
    balanceStorageKey(slot, holder),
    pad(numberToHex(amount), { size: 32 }),
  ]);
  const data = encodeFunctionData({ abi: erc20, functionName: "balanceOf", args: [holder] });
  const read = await readUint(url, token, data, "balanceOf");
  if (read !== amount)
    throw new ChainError(`Funding ${holder} with token ${token} by a storage write did not take.`, {
      details: `balanceOf returned ${read ?? "a revert"}, expected ${amount} (slot ${slot.slot}, ${slot.layout}, offset ${slot.offset}).`,
    });
}
