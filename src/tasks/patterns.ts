/**
 * The workflow-pattern taxonomy the report's Figures 4–5 group composite results by (README
 * "Comparing with the paper"): the paper's pattern name for each of its composite tasks, else a name
 * derived from the workflow's steps. Pure: loads no task and builds no figure. It sits with the task
 * specs because a composite's pattern is recorded in its result when the result is built
 * (`instanceFields`, src/protocol/atomic.ts), and the report reads it from there.
 */
const STEP_WORDS: [RegExp, string][] = [
  [/^query_/, "query"],
  [/approve/, "approve"],
  [/^swap_/, "swap"],
  [/^wbnb_deposit$/, "wrap"],
  [/^wbnb_withdraw$/, "unwrap"],
  [/^add_liquidity/, "add liquidity"],
  [/^remove_liquidity/, "remove liquidity"],
  [/^emergency_withdraw$/, "emergency withdraw"],
  [/^stake_/, "stake"],
  [/^unstake_/, "unstake"],
  [/^harvest_/, "harvest"],
  [/^erc721_/, "NFT transfer"],
  [/transferfrom/, "transferFrom"],
  [/transfer/, "transfer"],
];

/**
 * A composite workflow's pattern in the paper's words (§3.3 "approve→swap, approve→add liquidity,
 * add liquidity→stake"; §5.4 "batch approval"): its atomic steps named by action, repeats of one
 * action folded ("batch transfer" when the whole workflow repeats it), the read-only steps of a
 * workflow that also writes shown as "+ verify" (the paper's query-and-verify motif).
 */
export function workflowPattern(workflow: readonly string[]): string {
  const words = workflow.map((s) => STEP_WORDS.find(([re]) => re.test(s))?.[1] ?? s.replace(/_/g, " "));
  const writes = words.filter((w) => w !== "query");
  const folded = (ws: string[]) => ws.filter((w, i) => i === 0 || w !== ws[i - 1]);
  if (writes.length === 0) return folded(words).length === 1 && words.length > 1 ? "batch query" : "query";
  const core = folded(writes);
  const name = core.length === 1 && writes.length > 1 ? `batch ${core[0]}` : core.join(" → ");
  return writes.length < words.length ? `${name} + verify` : name;
}

/**
 * The paper's workflow pattern of each paper composite task (the paper, §3.2: "a composite_structure field that
 * names a workflow pattern"; Figures 4–5 group by it), as its implementation's question bank names
 * it: `composite_structure.pattern`, else the task's motif tag (`approve-execute`,
 * `query-write-verify`). Seven tasks are missing from the copy of that bank we could read
 * (marked "ours"); they are named in the same style from their steps.
 */
export const PAPER_PATTERNS: Readonly<Record<string, string>> = {
  composite_add_liquidity_stake_lp: "liquidity-approve-stake",
  composite_approve_add_liquidity: "approve-execute",
  composite_approve_remove_liquidity: "approve-execute",
  composite_approve_stake_tokens: "approve-execute",
  composite_approve_swap_query_result: "approve-swap-query",
  composite_approve_swap_to_bnb: "approve-execute",
  composite_approve_swap_tokens: "approve-execute",
  composite_approve_transferfrom: "approve-execute",
  composite_batch_approve_2_tokens: "batch-approve-execute",
  composite_batch_mixed_transfers: "batch-mixed-transfer",
  composite_batch_query_2_balances: "batch-query",
  composite_batch_query_portfolio: "batch-query", // ours
  composite_batch_transfer_2_bnb: "batch-transfer",
  composite_batch_transfer_2_tokens: "batch-transfer",
  composite_batch_transfer_3_bnb: "batch-transfer",
  composite_batch_transfer_3_tokens: "batch-transfer",
  composite_complete_swap_stake_workflow: "query-swap-stake-verify",
  composite_emergency_exit_workflow: "emergency-remove-unwrap-verify", // ours
  composite_full_liquidity_cycle: "full-liquidity-cycle",
  composite_harvest_reinvest_workflow: "harvest-swap-restake",
  composite_liquidity_provision_with_stake: "approve-liquidity-stake-verify",
  composite_multi_approve_multi_swap: "multi-approve-multi-swap", // ours
  composite_multi_token_swap: "multi-swap",
  composite_nft_bundle_sale: "nft-bundle-sale",
  composite_nft_transfer_with_payment: "nft-sale",
  composite_optimized_swap_with_query: "query-approve-swap-verify", // ours
  composite_portfolio_rebalance: "query-multi-swap-verify", // ours
  composite_query_allowance_approve_verify: "query-write-verify",
  composite_query_balance_wrap_verify: "query-write-verify",
  composite_query_bnb_transfer_verify: "query-write-verify", // ours
  composite_query_erc20_transfer_verify: "query-write-verify",
  composite_query_nft_transfer_verify: "query-write-verify",
  composite_query_reserves_before_after_swap: "query-write-verify",
  composite_query_rewards_harvest_verify: "query-write-verify",
  composite_query_staked_stake_verify: "query-write-verify",
  composite_query_swap_verify_output: "query-swap-verify",
  composite_remove_liquidity_unwrap: "remove-unwrap-verify",
  composite_split_and_transfer: "split-transfer",
  composite_swap_approve_stake: "swap-approve-stake",
  composite_swap_unwrap_bnb: "swap-unwrap",
  composite_triple_pool_liquidity: "multi-swap-liquidity", // ours
  composite_unstake_harvest_query: "unstake-harvest-query",
  composite_wrap_add_liquidity: "wrap-approve-liquidity",
  composite_wrap_swap_wbnb: "wrap-approve-swap",
  composite_wrap_unwrap_cycle: "wrap-unwrap",
};

/**
 * The pattern a composite result is grouped by in Figures 4–5: the paper's name for a paper task,
 * else one derived from the workflow (hard tasks), else the subcategory.
 */
export function compositePattern(
  taskId: string,
  workflow: readonly string[] | undefined,
  subcategory: string,
): string {
  return (
    PAPER_PATTERNS[taskId] ?? (workflow?.length ? workflowPattern(workflow) : subcategory.replace(/_/g, " "))
  );
}
