import type { CatalogueEntry } from "../catalogueTypes.ts";

/**
 * The hard world (issue 20): an EIP-2612 permit token, a Permit2-like contract, a router accepting permits, batching. Every entry has `set: "hard"`, so only hard tasks' prompts list
 * it; entries are appended to the catalogue after the paper's, so the paper's addresses stay put.
 */
export const HARD_SIGNATURES = {} satisfies Record<string, CatalogueEntry>;
