import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { leaderboardRow } from "../src/reporting/leaderboard.ts";
import { renderSummary } from "../src/reporting/summary.ts";
import { paperTables } from "../src/reporting/tables.ts";
import { summarize } from "../src/results/summarize.ts";
import type { RunManifest } from "../src/results/types.ts";
import { parseRunFlags } from "../src/runOptions.ts";
import { useAttempts } from "./helpers/attempts.ts";

const attempt = useAttempts(2);

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
});
