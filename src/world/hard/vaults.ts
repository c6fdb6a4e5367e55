import type { CatalogueEntry } from "../catalogueTypes.ts";

/**
 * The hard world (issue 20): an ERC-4626 vault and a small lending market. Every entry has `set: "hard"`, so only hard tasks' prompts list
 * it; entries are appended to the catalogue after the paper's, so the paper's addresses stay put.
 */
export const HARD_VAULTS = {} satisfies Record<string, CatalogueEntry>;
