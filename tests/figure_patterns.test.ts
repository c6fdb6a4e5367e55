import { describe, expect, test } from "vitest";
import { renderFigures } from "../src/reporting/figures.ts";
import type { MergedRun } from "../src/results/merge.ts";
import type { InstanceResult, RunResults } from "../src/results/types.ts";
import { loadTasks } from "../src/tasks/load.ts";
import { compositePattern, PAPER_PATTERNS, workflowPattern } from "../src/tasks/patterns.ts";

// Figures 4–5 group composite results by the paper's workflow pattern names (README "Comparing with
// the paper"), not by names we derive from the steps.
const composites = loadTasks().filter(
  (t) => (t.spec.set ?? "paper") === "paper" && t.spec.split === "composite",
);

describe("the paper's workflow pattern names", () => {
  test("every paper composite task has exactly one, and every name belongs to a paper composite task", () => {
    expect(composites).toHaveLength(45);
    expect(Object.keys(PAPER_PATTERNS).sort()).toEqual(composites.map((t) => t.spec.id).sort());
    for (const name of Object.values(PAPER_PATTERNS)) expect(name).toMatch(/^[a-z]+(-[a-z]+)+$/);
  });

  test("each name agrees with the task's steps (approve first, query first, repeated transfers, ...)", () => {
    for (const t of composites) {
      const wf = t.spec.workflow!;
      const name = PAPER_PATTERNS[t.spec.id]!;
      const writes = wf.filter((s) => !s.startsWith("query_"));
      if (name === "approve-execute") expect([wf[0], wf.length], t.spec.id).toEqual(["erc20_approve", 2]);
      if (name === "query-write-verify") {
        expect(wf[0], t.spec.id).toMatch(/^query_/);
        expect(writes, t.spec.id).toHaveLength(1);
      }
      if (name === "batch-transfer") expect(new Set(wf).size, t.spec.id).toBe(1);
      if (name === "batch-query") expect(writes, t.spec.id).toHaveLength(0);
      if (name.startsWith("batch-approve"))
        expect(wf.filter((s) => s === "erc20_approve").length, t.spec.id).toBeGreaterThanOrEqual(2);
      // Each step word of the name has a step of that kind in the workflow.
      const has = (prefix: RegExp) => wf.some((s) => prefix.test(s));
      const words = name.split("-");
      if (words.includes("stake") || words.includes("restake")) expect(has(/^stake_/), t.spec.id).toBe(true);
      if (words.includes("unstake")) expect(has(/^unstake_/), t.spec.id).toBe(true);
      if (words.includes("swap")) expect(has(/^swap_/), t.spec.id).toBe(true);
      if (words.includes("wrap")) expect(has(/^wbnb_deposit$/), t.spec.id).toBe(true);
      if (words.includes("unwrap")) expect(has(/^wbnb_withdraw$/), t.spec.id).toBe(true);
      if (words.includes("harvest")) expect(has(/^harvest_/), t.spec.id).toBe(true);
      if (words.includes("liquidity")) expect(has(/_liquidity_/), t.spec.id).toBe(true);
      if (words.includes("remove")) expect(has(/^remove_liquidity_/), t.spec.id).toBe(true);
      if (words.includes("nft")) expect(has(/^erc721_/), t.spec.id).toBe(true);
    }
  });

  test("a task without a paper name (the hard split) keeps the name derived from its steps", () => {
    const wf = ["erc20_approve", "swap_exact_tokens_for_tokens"];
    expect(compositePattern("some_hard_task", wf, "swap_workflows")).toBe(workflowPattern(wf));
    expect(compositePattern("some_hard_task", undefined, "swap_workflows")).toBe("swap workflows");
    expect(compositePattern("composite_approve_swap_tokens", wf, "swap_workflows")).toBe("approve-execute");
  });

  test("Figures 4 and 5 label their bars with the paper's names", async () => {
    const instance = (taskId: string, score: number) =>
      ({
        taskId,
        split: "composite",
        category: "composite",
        subcategory: "swap_workflows",
        score,
        passed: score >= 60,
        failure: null,
        epoch: 1,
        model: "m",
        composite: { kOpt: 2, kAct: 2, kFailed: 0, kQuery: 0, ethersNotDefined: false },
      }) as unknown as InstanceResult;
    const results = {
      manifest: { model: "m" },
      instances: [
        instance("composite_batch_approve_2_tokens", 100),
        instance("composite_approve_swap_tokens", 0),
        instance("composite_approve_stake_tokens", 100),
        instance("composite_query_balance_wrap_verify", 100),
      ],
    } as unknown as RunResults;
    const runs = [{ model: "m", manifest: results.manifest, sources: [], results }] as MergedRun[];
    const svgs = await renderFigures(runs, []);
    for (const fig of ["fig4-workflow-patterns", "fig5-top-patterns"]) {
      const svg = svgs[fig]!;
      for (const name of ["batch-approve-execute", "approve-execute", "query-write-verify"])
        expect(svg, `${fig}: ${name}`).toContain(`>${name}<`);
      // The derived names are gone for paper tasks.
      expect(svg).not.toContain("approve → add liquidity");
      expect(svg).not.toContain("wrap + verify");
    }
  });
});
