import type { CatalogueEntry } from "../catalogueTypes.ts";

/**
 * The hard world (issue 20): tokens with 6 and 8 decimals, a no-return USDT-like token, a fee-on-transfer token, and their pools. Every entry has `set: "hard"`, so only hard tasks' prompts list
 * it; entries are appended to the catalogue after the paper's, so the paper's addresses stay put.
 */
export const HARD_TOKENS = {} satisfies Record<string, CatalogueEntry>;
