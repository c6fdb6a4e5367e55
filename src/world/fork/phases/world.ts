/**
 * The provisioned world as world.json describes the local one (docs/TASKS.md "The world"): the fork's
 * addresses, its tokens' metadata and slots, the constants, and an id of the provisioned state.
 */
import { createHash } from "node:crypto";
import { type Address, parseEther, zeroAddress } from "viem";
import { erc20Abi } from "../../abis.ts";
import { storageSlotTable, tokenTable, worldConstants } from "../../catalogueViews.ts";
import type { ContractKey, TokenKey, World } from "../../world.ts";
import { FORK_KEYS, type ProbedSlots, type Provisioning } from "../context.ts";

/** A line's amount in wei, as world.json `constants` writes it ("0" for no line). */

/**
 * Assembles the world at the provisioned head: every catalogue key's address (zero when it failed),
 * the canonical tokens' metadata as the fork reports it, the slots in world.json's form where the
 * probe found Solidity layouts, the constants (the agent's stake and rich's allowance to the agent
 * as the provisioned `stakes` and `allowances` say, "0" when they name none), and a worldId that is
 * the same for the same fork block and provisioning (merge compares it).
 *
 * Reads: `contracts`, `catalogue`, `probedTokens`, `stakes`, `allowances`, the fork's head and
 * genesis blocks. Writes: `errors` (a token whose metadata could not be read).
 */
export async function assembleWorld(
  p: Provisioning,
  found: { slots: ProbedSlots; P: string; stakeTimestamp: number },
): Promise<World> {
  const { slots, P, stakeTimestamp } = found;
  const head = await p.client.getBlock();
  const genesis = await p.client.getBlock({ blockNumber: 0n });
  const world_contracts = Object.fromEntries(
    Object.keys(p.catalogue).map((key) => [key, p.contracts[key] ?? zeroAddress]),
  ) as Record<ContractKey, Address>;
  const tokens = tokenTable(p.catalogue) as World["tokens"];
  for (const key of p.probedTokens)
    await p.step(`metadata ${key}`, async () => {
      const [symbol, name, decimals] = await Promise.all([
        p.read<string>(world_contracts[key], erc20Abi, "symbol"),
        p.read<string>(world_contracts[key], erc20Abi, "name"),
        p.read<number>(world_contracts[key], erc20Abi, "decimals"),
      ]);
      tokens[key as TokenKey] = { symbol, name, decimals: Number(decimals) };
    });
  const storageSlots = storageSlotTable(p.catalogue) as World["storageSlots"];
  for (const key of p.probedTokens) {
    const { balance, allowance } = slots[key];
    // world.json's storageSlots are Solidity slot numbers; other layouts live in the report only.
    if (balance?.layout === "solidity" && balance.offset === 0 && allowance?.layout === "solidity")
      storageSlots[key] = { balances: balance.slot, allowances: allowance.slot };
    else delete storageSlots[key];
  }
  const body = {
    schemaVersion: 1 as const,
    chainId: 56 as const,
    genesisTimestamp: Number(genesis.timestamp),
    snapshot: { blockNumber: Number(head.number), timestamp: Number(head.timestamp) },
    agent: { address: p.accounts.agent, privateKey: FORK_KEYS.agent },
    rich: { address: p.accounts.rich, privateKey: FORK_KEYS.rich },
    treasury: { address: p.accounts.treasury, privateKey: FORK_KEYS.treasury },
    contracts: world_contracts,
    tokens,
    constants: worldConstants(P, stakeTimestamp, p),
    storageSlots,
  };
  return {
    ...body,
    // Identifies the provisioned state: same fork block and provisioning → same id (merge compares it).
    worldId: `sha256:${createHash("sha256")
      .update(JSON.stringify({ forkHead: head.hash, body }))
      .digest("hex")}`,
  };
}
