/**
 * Build steps of the hard world: what a catalogue placement cannot say (funding a vault, creating
 * and seeding V3 pools, planting balances of tokens that do not have 18 decimals). The world build
 * (fixtures/build-world.ts) and fork provisioning (src/world/fork/provision.ts) both run them, in
 * this order, after the paper world's holdings and allowances and before its stakes, so the paper
 * world's addresses and snapshot clock stay as they were. A step whose contracts are not in the
 * catalogue being built (a test's throwaway catalogue) does nothing.
 */
import { discovery } from "./discovery.ts";
import { routing } from "./routing.ts";
import { signatures } from "./signatures.ts";
import { tokens } from "./tokens.ts";
import type { HardBuildStep } from "./types.ts";
import { v3, v3Decimals } from "./v3.ts";
import { moneyMarket, streamVault, vaults } from "./vaults.ts";

export type { HardBuildApi, HardBuildStep } from "./types.ts";

/** One build step and its name (fork mode reports a step that failed on the fork by it). */
export type NamedHardBuildStep = { name: string; run: HardBuildStep };

/** In build order: tokens first (the others may pool or lend them). */
export const HARD_BUILD_STEPS: readonly NamedHardBuildStep[] = [
  { name: "tokens", run: tokens },
  { name: "v3", run: v3 },
  { name: "vaults", run: vaults },
  { name: "signatures", run: signatures },
  { name: "routing", run: routing },
  { name: "v3Decimals", run: v3Decimals },
  { name: "moneyMarket", run: moneyMarket },
  { name: "streamVault", run: streamVault },
  { name: "discovery", run: discovery },
];
