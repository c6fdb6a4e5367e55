/**
 * Fork mode (README "Fork mode", docs/TASKS.md "Fork provisioning"): provisions the world of a
 * catalogue (docs/TASKS.md "The world catalogue") on a fork of a real chain, without the local
 * world's build script or state file. The canonical contracts (tokens, PancakeSwap router and
 * factory, PancakeSquad) are the fork's own; the pairs come from the fork's factory; every holding,
 * allowance, stake and BNB balance of the snapshot is put there by the harness with cheat methods
 * (storage writes, `anvil_setBalance`, impersonation) and real transactions from fork-only accounts;
 * and the own contracts are deployed from the build's compiled artifacts (fixtures/artifacts). Each
 * phase is a function of src/world/fork/phases/; this module runs them in order.
 */
import type { Address, Hex } from "viem";
import type { Holding } from "../catalogue.ts";
import type { World } from "../world.ts";
import {
  type ForkPairs,
  openProvisioning,
  type ProbedSlots,
  type ProvisioningParameters,
} from "./context.ts";
import { buildHardWorld, deployOwnContracts } from "./phases/contracts.ts";
import { mintLpHoldings, pairsFromFactory, readP } from "./phases/liquidity.ts";
import { grantAllowances, makeStakes, moveSquadToAgent, plantRemainingHoldings } from "./phases/snapshot.ts";
import { checkFork, fundGas, settleNativeBalances } from "./phases/start.ts";
import { approveRouter, fundByStorage, probeSlots, wrapNative } from "./phases/tokens.ts";
import { assembleWorld } from "./phases/world.ts";
import { type Requirement, verifyRequirements } from "./requirements.ts";

/** What a fork run records about the chain it forked (results.json `manifest.fork`). */
export type ForkManifest = {
  chainId: number;
  /** The pinned block (`--fork-block latest` resolved once, before any instance booted). */
  blockNumber: number;
  blockHash: Hex;
  /** The fork URL with credentials redacted (src/world/fork/redact.ts). */
  url: string;
};

/** What provisioning did and found; the run keeps it next to the manifest. */
export type ProvisionReport = {
  /** Probed storage slots of the canonical tokens (null: not found, see `errors`). */
  slots: ProbedSlots;
  /** Pair addresses from the factory; `created` when the fork lacked the pair and provisioning made it. */
  pairs: ForkPairs;
  /** Holder of PancakeSquad #1 on the fork before it was moved to the agent. */
  pancakeSquadPreviousOwner: Address | null;
  requirements: Requirement[];
  /** Steps that threw: step name → its message on one line, as thrown. */
  errors: Record<string, string>;
  timings: { probeMs: number; provisionMs: number };
};

/**
 * Parameters of {@link provisionFork}: the fork's URL and chain id, and the world to provision (the
 * catalogue, its holdings, allowances, stakes and BNB balances, each defaulting to the built-in one).
 */
export type ProvisionForkParameters = ProvisioningParameters;

/**
 * Provisions the world it is given (the catalogue and the snapshot's holdings, allowances, stakes
 * and BNB balances; by default the built-in ones) on a freshly booted fork and returns the world
 * (same shape as world.json, with the fork's addresses) plus a report. Deterministic: the same fork
 * block and lists give the same addresses, balances and snapshot head on every pool instance.
 *
 * Phases, in order: {@link checkFork} (throws); {@link fundGas} (clock, BNB for gas);
 * {@link probeSlots}; {@link fundByStorage} (the treasury's and the accounts' canonical tokens);
 * {@link wrapNative} (WBNB by deposits); {@link approveRouter}; {@link pairsFromFactory} (creating and
 * seeding a missing pair); {@link readP}; {@link mintLpHoldings}; {@link deployOwnContracts};
 * {@link plantRemainingHoldings} (from the treasury); {@link moveSquadToAgent} (impersonating its
 * holder); {@link grantAllowances}; {@link buildHardWorld}; {@link makeStakes} (STAKE_AGE_SECONDS
 * before the snapshot block); {@link settleNativeBalances}; {@link assembleWorld}. Each step that
 * fails is recorded; the requirements of the same lists are then verified by reading the chain
 * ({@link verifyRequirements}).
 *
 * @throws {ChainError} when the fork is not chain 56 or not `chainId`, or a canonical contract has no
 *   code (nothing of the benchmark can run); failures of single steps are reported, not thrown.
 */
export async function provisionFork(
  parameters: ProvisionForkParameters,
): Promise<{ world: World; report: ProvisionReport }> {
  const p = openProvisioning(parameters);
  const started = performance.now();
  await checkFork(p, parameters.chainId);
  await fundGas(p);

  const probeStart = performance.now();
  const slots = await probeSlots(p);
  const probeMs = Math.round(performance.now() - probeStart);

  const planted = new Set<Holding>(await fundByStorage(p, slots));
  for (const h of await wrapNative(p)) planted.add(h);
  await approveRouter(p);
  const pairs = await pairsFromFactory(p);
  // P is a constant of the pinned block: read before provisioning mints any LP.
  const P = await readP(p);
  for (const h of await mintLpHoldings(p)) planted.add(h);
  await deployOwnContracts(p);
  await plantRemainingHoldings(p, planted);
  const squadOwner = await moveSquadToAgent(p);
  await grantAllowances(p);
  await buildHardWorld(p);
  const stakeTimestamp = await makeStakes(p);
  await settleNativeBalances(p);

  const world = await assembleWorld(p, { slots, P, stakeTimestamp });
  const requirements = await verifyRequirements(p.client, world, p.errors, p);
  return {
    world,
    report: {
      slots,
      pairs,
      pancakeSquadPreviousOwner: squadOwner,
      requirements,
      errors: p.errors,
      timings: { probeMs, provisionMs: Math.round(performance.now() - started) },
    },
  };
}
