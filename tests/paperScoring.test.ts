import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { ModelClient } from "../src/models/types.ts";
import { leaderboardRow } from "../src/reporting/leaderboard.ts";
import { renderSummary } from "../src/reporting/summary.ts";
import { paperTables } from "../src/reporting/tables.ts";
import { summarize } from "../src/results/summarize.ts";
import type { RunManifest } from "../src/results/types.ts";
import { parseRunFlags } from "../src/runOptions.ts";
import { paperScoring } from "../src/validators/paperScoring.ts";
import type { CheckResult } from "../src/validators/types.ts";
import { tasks, useAttempts } from "./helpers/attempts.ts";

const attempt = useAttempts(2);

/** A model that answers every call with `text` (a real ModelClient, as a user-defined one). */
const always = (text: string): ModelClient => ({ id: "fixed", generate: async () => ({ text }) });
const REFUSAL = always(
  '```ts\nexport async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {\n  return { refuse: { reason: "I will not do this." } };\n}\n```',
);
const ERROR_REPORT = always('```json\n{"error": {"type": "refused", "message": "I will not do this."}}\n```');

/** A `scripted:` model answering swap_exact_tokens_for_tokens with a minimum no pool can meet: the router reverts. */
function revertingSwap(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "qb-paper-revert-"));
  writeFileSync(
    path.join(dir, "swap_exact_tokens_for_tokens.md"),
    `Asks for 2^255 BUSD out: the router reverts (INSUFFICIENT_OUTPUT_AMOUNT), and the revert is mined.

\`\`\`ts
import { ethers } from "ethers";

export async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {
  const router = new ethers.Interface([
    "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[])",
  ]);
  return {
    to: deployedContracts.pancake_router,
    data: router.encodeFunctionData("swapExactTokensForTokens", [
      ethers.parseUnits("{{x}}", 18),
      2n ** 255n,
      [deployedContracts.usdt, deployedContracts.busd],
      agentAddress,
      2n ** 40n,
    ]),
  };
}
\`\`\`
`,
  );
  return `scripted:${dir}`;
}

/** The paper's tasks with a price bound (`priceBounds` or `v3PriceBounds`), read from the task bank. */
const PRICE_BOUND_TASKS = tasks.filter(
  (t) =>
    (t.spec.set ?? "paper") === "paper" &&
    /"v3PriceBounds"|"priceBounds"/.test(JSON.stringify(t.spec.checks)),
);

/** A `scripted:` model answering erc20_transfer_fixed with `num / den` of the requested amount. */
function shortTransfer(num: bigint, den: bigint): string {
  const dir = mkdtempSync(path.join(tmpdir(), "qb-paper-scoring-"));
  writeFileSync(
    path.join(dir, "erc20_transfer_fixed.md"),
    `Sends ${num} / ${den} of the amount asked.

\`\`\`ts
import { ethers } from "ethers";

export async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {
  const erc20 = new ethers.Interface(["function transfer(address to, uint256 amount) returns (bool)"]);
  return {
    to: deployedContracts.usdt,
    data: erc20.encodeFunctionData("transfer", ["{{to}}", (ethers.parseUnits("{{x}}", 18) * ${num}n) / ${den}n]),
  };
}
\`\`\`
`,
  );
  return `scripted:${dir}`;
}

describe("--scoring paper: the paper's checks and tolerances, beside ours", () => {
  test("a transfer 1.5 % short fails ours (★ effect, capped at 50) but passes the paper's 2 %", async () => {
    const r = await attempt("erc20_transfer_fixed", shortTransfer(985n, 1000n), 1, 0, { scoring: "paper" });
    // Ours: tx 30 + contract 20 + selector 20, the ★ effect failed → capped at 50.
    expect(r.score).toBe(50);
    expect(r.checks.find((c) => c.name === "effect")?.passed).toBe(false);
    expect(r.paperScoring).toMatchObject({ score: 100, passed: true });
    const effect = r.paperScoring!.checks.find((c) => c.name === "effect")!;
    expect(effect.detail).toMatch(/^within the paper's 2 % \(ours: ✗ Δ /);
    // The effect ledger's ★ check is not the paper's: counted as held, its verdict kept in the detail.
    expect(r.checks.at(-1)!.name).toBe("effects");
    expect(r.paperScoring!.checks.at(-1)!).toMatchObject({ name: "effects", passed: true });
    // Never mixed into our totals: the summary keeps the paper's apart.
    const summary = summarize([r]);
    expect(summary.total.score).toBe(50);
    expect(summary.paperScoring?.total).toMatchObject({ score: 100, max: 100, passed: 1, count: 1 });
    expect(renderSummary(summary, "m")).toContain(
      "Paper scoring (--scoring paper, beside ours, never added to it): atomic 100 / 100, composite 0 / 0, total 100 / 100 (1 / 1 passed)",
    );
    // The leaderboard's Table 1 shows it in its own labelled column, Total stays ours.
    const manifest = { modes: { scoring: "paper" } } as RunManifest;
    const row = leaderboardRow({
      model: "m",
      manifest,
      sources: [],
      results: { schemaVersion: 1, manifest, summary, instances: [r] },
    });
    expect(row).toMatchObject({ total: 50, paperScoringTotal: 100 });
    const table1 = paperTables([row], 0).find((t) => t.id === "table1")!;
    const at = (h: string) => table1.rows[0]![table1.header.indexOf(h)];
    expect([at("Total"), at("Total (paper scoring)")]).toEqual(["50", "100"]);
    expect(table1.caption).toContain("Total (paper scoring) = the same instances scored the paper's way");
  });

  test("3 % short is outside the paper's tolerance too: no cap, so the other checks' 70 stand", async () => {
    const r = await attempt("erc20_transfer_fixed", shortTransfer(97n, 100n), 1, 0, { scoring: "paper" });
    expect(r.score).toBe(50);
    expect(r.paperScoring).toMatchObject({ score: 70, passed: true });
    expect(r.paperScoring!.checks.find((c) => c.name === "effect")?.passed).toBe(false);
  });

  test("--scoring paper|ours parses into the run's modes (manifest and resume key); a bad value is a one-line error", () => {
    expect(parseRunFlags(["--scoring", "paper"]).modes).toEqual({ scoring: "paper" });
    expect(parseRunFlags(["--scoring", "ours"]).modes).toBeUndefined();
    expect(() => parseRunFlags(["--scoring", "strict"])).toThrow(
      /--scoring must be paper or ours, got 'strict'/,
    );
  });

  test("without --scoring paper nothing is scored the paper's way", async () => {
    const r = await attempt("erc20_transfer_fixed", shortTransfer(985n, 1000n), 1);
    expect(r.paperScoring).toBeUndefined();
    expect(summarize([r]).paperScoring).toBeUndefined();
  });

  test("a refusal scores 0 on every paper task with a price bound (the bound is the paper's slippage check, not free points)", async () => {
    // 9 atomic and 24 composite tasks in today's bank; a refusal once scored their bound's 10 here.
    expect(PRICE_BOUND_TASKS.length).toBeGreaterThanOrEqual(33);
    const results = await Promise.all(
      PRICE_BOUND_TASKS.map(async (t) => {
        const r = await attempt(t.spec.id, t.spec.split === "atomic" ? REFUSAL : ERROR_REPORT, 1, 0, {
          scoring: "paper",
        });
        return [t.spec.id, r.score, r.paperScoring?.score] as const;
      }),
    );
    expect(results.filter(([, ours, paper]) => ours !== 0 || paper !== 0)).toEqual([]);
  });

  test("a reverted swap scores what the paper's validators give it: the call's target and selector, no slippage points", async () => {
    const r = await attempt("swap_exact_tokens_for_tokens", revertingSwap(), 1, 0, { scoring: "paper" });
    expect(r.transaction?.status).toBe("reverted");
    const byName = (checks: readonly CheckResult[]) =>
      Object.fromEntries(checks.filter((c) => c.weight > 0).map((c) => [c.name, c.passed]));
    // txSucceeded 30 ✗, calledContract 10 ✓, selectorIn 10 ✓, in 10 ✗ (nothing moved), out 30 ✗, guard 10 ✗
    // (no successful router call: the paper's slippage check has no output to judge) → 20.
    expect(byName(r.paperScoring!.checks)).toEqual({
      txSucceeded: false,
      calledContract: true,
      selectorIn: true,
      in: false,
      out: false,
      guard: false,
    });
    expect(r.paperScoring).toMatchObject({ score: 20, passed: false });
    // Ours: the same 20 (the ★ failures cap at 50, which 20 is under).
    expect(r.score).toBe(20);
  });
});

describe("--scoring paper's mapping, on hand-made check results", () => {
  const check = (name: string, passed: boolean, weight: number, detail: string): CheckResult =>
    ({ name, passed, weight, critical: false, detail }) as CheckResult;
  const guardSpec = { check: "priceBounds", weight: 40, args: { router: "contracts.pancake_router" } };
  const swapSpec = { split: "atomic" as const, checks: [{ check: "txSucceeded", weight: 60 }, guardSpec] };
  const judged = (detail: string) => ({
    checks: [check("txSucceeded", true, 60, "ok"), check("guard", false, 40, detail)],
    failure: { class: "checks_failed" },
  });

  test("a price bound looser than ours but within the paper's 5 % holds; beyond it, or with no call, it does not", () => {
    // s = 1 %: the rule required 990 of a quote of 1000 (× (1 − 1 %)); the paper's 5 % requires 950.
    const within = paperScoring(
      judged("s = 1 %: swapExactTokensForTokens: amountOutMin 951 < 990"),
      swapSpec,
    );
    expect(within.score).toBe(100);
    expect(within.checks[1]!.detail).toMatch(/^within the paper's 5 % slippage \(ours: s = 1 %/);
    expect(
      paperScoring(judged("s = 1 %: swapExactTokensForTokens: amountOutMin 949 < 990"), swapSpec).score,
    ).toBe(60);
    // A maximum (exact-out): 1010 allowed at 1 %, 1050 at 5 %.
    expect(
      paperScoring(judged("s = 1 %: swapTokensForExactTokens: amountInMax 1049 > 1010"), swapSpec).score,
    ).toBe(100);
    expect(
      paperScoring(judged("s = 1 %: swapTokensForExactTokens: amountInMax 1051 > 1010"), swapSpec).score,
    ).toBe(60);
    expect(paperScoring(judged("no successful swap or liquidity call to the router"), swapSpec).score).toBe(
      60,
    );
    // A wrong offer is not a slippage bound: it stays failed.
    expect(
      paperScoring(judged("s = 1 %: addLiquidity: offers 5 of 0xabc, requested 6"), swapSpec).score,
    ).toBe(60);
  });

  test("an atomic refusal fails before the checks: 0 whatever its checks say", () => {
    const refusal = {
      ...judged("no successful swap or liquidity call to the router"),
      failure: { class: "checks_failed", code: "refused" },
    };
    refusal.checks[0] = check("txSucceeded", true, 60, "vacuous");
    expect(paperScoring(refusal, swapSpec).score).toBe(0);
  });

  test("K_act counts every executed round, a reply that only submits included (App. D.2)", () => {
    const spec = { split: "composite" as const, checks: [{ check: "txSucceeded", weight: 0 }] };
    const composite = (rounds: number) => ({
      checks: [check("txSucceeded", true, 0, "ok")],
      failure: null,
      composite: { kOpt: 2, kAct: 2, endedBy: "submit", rounds: Array.from({ length: rounds }, () => ({})) },
    });
    // Two counted rounds and a submit-only reply: ours decays by 2/2 = 1, the paper's by 2/3.
    expect(paperScoring(composite(3), spec).score).toBe(66.67);
    expect(paperScoring(composite(2), spec).score).toBe(100);
  });

  test("an exact change of a staked amount holds within the paper's 2 %, another stateDelta does not", () => {
    const staked = {
      check: "stateDelta",
      weight: 40,
      args: { read: "staked(contracts.simple_staking, agent)", expected: "wei(x)" },
    };
    const other = {
      check: "stateDelta",
      weight: 40,
      args: { read: "call(contracts.simple_counter, 'counter()(uint256)')", expected: "1" },
    };
    const detail = "Δ staked(contracts.simple_staking, agent): expected = 1000, actual 985";
    const r = (spec: typeof staked) =>
      paperScoring(
        {
          checks: [check("txSucceeded", true, 60, "ok"), check("staked", false, 40, detail)],
          failure: { class: "checks_failed" },
        },
        { split: "atomic", checks: [{ check: "txSucceeded", weight: 60 }, spec] },
      ).score;
    expect(r(staked)).toBe(100);
    expect(r(other)).toBe(60);
  });
});
