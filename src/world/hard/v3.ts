import type { CatalogueEntry } from "../catalogueTypes.ts";

/**
 * The hard world (issue 20): a Uniswap V3 factory, pools with fee tiers, SwapRouter and quoter (npm artifacts). Every entry has `set: "hard"`, so only hard tasks' prompts list
 * it; entries are appended to the catalogue after the paper's, so the paper's addresses stay put.
 */
export const HARD_V3 = {} satisfies Record<string, CatalogueEntry>;
