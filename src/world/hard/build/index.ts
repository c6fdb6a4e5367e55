/**
 * Build steps of the hard world: what a catalogue placement cannot say (funding a vault, creating
 * and seeding V3 pools, planting balances of tokens that do not have 18 decimals). The world build
 * (fixtures/build-world.ts) and fork provisioning (src/world/fork/provision.ts) both run them, in
 * this order, after the paper world's holdings and allowances and before its stakes, so the paper
 * world's addresses and snapshot clock stay as they were. A step whose contracts are not in the
 * catalogue being built (a test's throwaway catalogue) does nothing.
 */
import { HARD_DISCOVERY } from "../discovery.ts";
import { HARD_ROUTING } from "../routing.ts";
import { HARD_SIGNATURES } from "../signatures.ts";
import { HARD_TOKENS } from "../tokens.ts";
import { HARD_V3, HARD_V3_DECIMALS } from "../v3.ts";
import { HARD_MONEY_MARKET, HARD_VAULTS } from "../vaults.ts";
import { discovery } from "./discovery.ts";
import { routing } from "./routing.ts";
import { signatures } from "./signatures.ts";
import { tokens } from "./tokens.ts";
import type { HardBuildStep } from "./types.ts";
import { v3, v3Decimals } from "./v3.ts";
import { moneyMarket, streamVault, vaults } from "./vaults.ts";

export type { HardBuildApi, HardBuildStep } from "./types.ts";

/**
 * One build step with the catalogue keys whose state it sets up: a task naming one of them relies
 * on the step (fork mode skips such a task, before the run, when the step failed on the fork).
 */
export type NamedHardBuildStep = { name: string; keys: readonly string[]; run: HardBuildStep };

/** In build order: tokens first (the others may pool or lend them). */
export const HARD_BUILD_STEPS: readonly NamedHardBuildStep[] = [
  { name: "tokens", keys: Object.keys(HARD_TOKENS), run: tokens },
  { name: "v3", keys: Object.keys(HARD_V3), run: v3 },
  { name: "vaults", keys: Object.keys(HARD_VAULTS), run: vaults },
  { name: "signatures", keys: Object.keys(HARD_SIGNATURES), run: signatures },
  { name: "routing", keys: Object.keys(HARD_ROUTING), run: routing },
  { name: "v3Decimals", keys: Object.keys(HARD_V3_DECIMALS), run: v3Decimals },
  {
    name: "moneyMarket",
    keys: Object.keys(HARD_MONEY_MARKET).filter((key) => key !== "usdc_stream_vault"),
    run: moneyMarket,
  },
  { name: "streamVault", keys: ["usdc_stream_vault"], run: streamVault },
  { name: "discovery", keys: Object.keys(HARD_DISCOVERY), run: discovery },
];
