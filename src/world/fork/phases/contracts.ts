/**
 * The contracts a fork lacks (README "Fork mode"): the own contracts deployed from the build's
 * artifacts with the catalogue's arguments, and the hard world made by the world build's own steps.
 */
import type { Address } from "viem";
import { parseEther } from "viem";
import { loadArtifact } from "../../artifacts.ts";
import type { AccountName, Placement } from "../../catalogue.ts";
import { deploymentOrder, keysOfKind, resolveArgs } from "../../catalogueViews.ts";
import { HARD_BUILD_STEPS, type HardBuildApi } from "../../hard/build/index.ts";
import { HARD_WORLD_WBNB, type Provisioning, wrapperOf } from "../context.ts";

/**
 * Deploys the own contracts in deployment order (each after the contracts its arguments name), then
 * points each `account` key at its account.
 *
 * Reads: `catalogue`, `accounts`, `contracts` (for arguments). Writes: `contracts` (each deployed
 * and account key), deployments on the fork; `errors`.
 */
export async function deployOwnContracts(p: Provisioning): Promise<void> {
  for (const key of deploymentOrder(p.catalogue))
    await p.step(`deploy ${key}`, async () => {
      const place = p.catalogue[key]!.place as Extract<Placement, { kind: "deployed" }>;
      const args = resolveArgs(place.args, {
        accounts: p.accounts,
        contracts: p.contracts as Record<string, Address>,
      });
      p.contracts[key] = await p.deploy(place.artifact, args);
    });
  for (const key of keysOfKind("account", p.catalogue))
    p.contracts[key] = p.accounts[(p.catalogue[key]!.place as { account: AccountName }).account];
}

/**
 * The hard world, by the world build's own steps (same catalogue, same seeds). They pool and lend
 * WBNB too: when the catalogue has a hard entry, the treasury first wraps {@link HARD_WORLD_WBNB}, as
 * the build does.
 *
 * Reads: `catalogue`, `contracts`, `signer`. Writes: `contracts` (each `built` key the steps make),
 * the hard world on the fork; `errors` (a failed step under `hard world: <name>`).
 */
export async function buildHardWorld(p: Provisioning): Promise<void> {
  const { wrapper, wrapperAbi } = wrapperOf(p);
  if (Object.values(p.catalogue).some((e) => e.set === "hard"))
    await p.step("treasury WBNB deposit for the hard world", () =>
      p.call(p.signer.treasury, wrapper, wrapperAbi, "deposit", [], parseEther(HARD_WORLD_WBNB)),
    );
  const api: HardBuildApi = {
    rpc: p.rpc,
    tx: (from, to, abi, fn, args = [], value = 0n) => p.call(from, to, abi, fn, args, value),
    deploy: p.deployArtifact,
    art: (ref) => loadArtifact(ref, p.artifactsDir),
    call: (to, abi, fn, args = []) => p.read(to, abi, fn, args),
    contracts: p.contracts as Record<string, Address>,
    signer: p.signer,
    log: () => {},
  };
  for (const hard of HARD_BUILD_STEPS) await p.step(`hard world: ${hard.name}`, () => hard.run(api));
}
