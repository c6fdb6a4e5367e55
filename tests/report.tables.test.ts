import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { encodeFunctionData, erc20Abi } from "viem";
import { beforeAll, describe, expect, test } from "vitest";
import { placeLabels } from "../src/reporting/figureSpecs.ts";
import { writeReport } from "../src/reporting/report.ts";
import { MergeError } from "../src/results/merge.ts";
import { planSteps } from "../src/results/metrics.ts";
import type { InstanceResult, RunResults } from "../src/results/types.ts";
import { workflowPattern } from "../src/tasks/patterns.ts";
import { CHROMIUM, launchChromium } from "./helpers/browser.ts";
import {
  type FixtureRounds,
  fixtureInstance,
  fixtureResults,
  rowsOf,
  writeRun,
} from "./helpers/reportFixtures.ts";

/** One hand-made paper instance (atomic, or composite with its rounds). */
const instance = (model: string, taskId: string, epoch: number, score: number, rounds?: FixtureRounds) =>
  fixtureInstance(model, taskId, epoch, score, rounds ? { rounds } : {});
const results = (model: string, instances: InstanceResult[], modes?: RunResults["manifest"]["modes"]) =>
  fixtureResults(model, instances, modes ? { modes } : {});

// Model A: a1 = 100, 50 (mean 75); a2 = 0; c1 = 100 (K 3/3) and 75 (K 4/3, one failed round, ethers).
const A = [
  instance("model-a", "a1", 1, 100),
  instance("model-a", "a1", 2, 50),
  instance("model-a", "a2", 1, 0),
  instance("model-a", "c1", 1, 100, { kOpt: 3, kAct: 3, kFailed: 0 }),
  instance("model-a", "c1", 2, 75, { kOpt: 3, kAct: 4, kFailed: 1, ethers: true }),
];
// Model B: a1 = 100, a2 = 100; c1 = 0 twice (K 6/3, six failed rounds).
const B = [
  instance("model-b", "a1", 1, 100),
  instance("model-b", "a2", 1, 100),
  instance("model-b", "c1", 1, 0, { kOpt: 3, kAct: 6, kFailed: 6 }),
  instance("model-b", "c1", 2, 0, { kOpt: 3, kAct: 6, kFailed: 6 }),
];

// Safety flags (docs/SCORING.md "Safety flags"): A has 3 of 5 instances without a flag (60 %), B 3 of 4
// (75 %).
A[1]!.safety = ["loose_min_out"];
A[2]!.safety = ["no_min_out", "unlimited_approval"];
B[2]!.safety = ["extra_side_effect"];
// Execution cost against the gold answer: A's three priced attempts cost 10, 30 and 20 bps (median
// 20.0) at 1.0, 1.2 and 1.1 × the gold's gas (median 1.10); its unpriced one counts in neither; B has none.
const cost = (costBps: number | null, gasRatio: number | null) => ({
  costBps,
  value: "0",
  goldValue: "0",
  gasUsed: "0",
  goldGasUsed: "0",
  gasRatio,
  unpriced: 0,
});
A[0]!.execution = cost(10, 1.0);
A[1]!.execution = cost(30, 1.2);
A[2]!.execution = cost(null, null);
A[3]!.execution = cost(20, 1.1);

describe("report tables from a hand-made results.json", () => {
  const out = mkdtempSync(path.join(tmpdir(), "qb-tables-"));
  let md: string;
  beforeAll(async () => {
    await writeReport({ inputs: [writeRun(results("model-a", A)), writeRun(results("model-b", B))], out });
    md = readFileSync(path.join(out, "leaderboard.md"), "utf8");
  }, 600_000);

  test("Table 1 ranks by Total with scores, Avg, its between-task CI and coverage computed by hand", () => {
    // A: Atom 75 + 0 = 75, Comp (100 + 75)/2 = 87.5, Total 162.5, Avg 162.5/107 = 1.5, Avg (run) 162.5/3 = 54.2;
    // the tasks are the observations: means 75, 0, 87.5 → scipy.stats.ttest_1samp([75, 0, 87.5], 0)
    // .confidence_interval(0.95) = (−63.393, 171.727): three tasks say little.
    // B: Atom 200, Comp 0, Total 200, Avg 200/107 = 1.9, Avg (run) 66.7; means 100, 100, 0 → (−76.755, 210.088).
    // Neither ran every task in both epochs: no re-run SD column.
    // Safety: A 3 of 5 instances without a flag = 60 %, B 3 of 4 = 75 %. Cost and Gas: medians above.
    expect(rowsOf(md, "Table 1:")).toEqual([
      // No hard task ran: no Hard columns.
      "| 1 | model-b | 200 | 0 | 200 | 1.9 | 66.7 | [-76.8, 210.1] | 75% | — | — | 3/107 (2/62 · 1/45) | default |",
      "| 2 | model-a | 75 | 87.5 | 162.5 | 1.5 | 54.2 | [-63.4, 171.7] | 60% | 20.0 | 1.10 | 3/107 (2/62 · 1/45) | default |",
    ]);
  });

  test("Table 2 gives composite Score, Pass (tasks), mean K_act, Eff %, 1st % and ethers % as computed by hand", () => {
    // A: Pass = tasks whose mean is ≥ 60: c1 (mean 87.5) → 1, though 2 instances passed; K (3+4)/2 = 3.5;
    // Retries: epoch 2's rounds fail, ok, ok, ok → 1 round after a failure; Eff (1 + 3/4)/2 = 87.5;
    // 1st: 1 of 2 passed without a failed round; eth 1 of 2.
    // B: c1 mean 0 → Pass 0; K 6; Retries: six failed rounds, 5 after a failure, in each of 2 epochs = 10;
    // Eff 3/6 = 50; nothing passed; no ethers failure.
    expect(rowsOf(md, "Table 2:")).toEqual([
      "| model-b | 0 | 0 | 6.0 | 10 | 50.0 | 0.0 | 0.0 | 3/107 (2/62 · 1/45) |",
      "| model-a | 87.5 | 1 | 3.5 | 1 | 87.5 | 50.0 | 50.0 | 3/107 (2/62 · 1/45) |",
    ]);
  });

  test("Table 9 gives mean Δ, over-optimal share and nearest-rank P90 as computed by hand", () => {
    // A: Δ = 0, 1: mean +0.50, 1 of 2 over the optimum, P90 = the 2nd of 2 = 1. B: Δ = 3, 3.
    expect(rowsOf(md, "Table 9:")).toEqual([
      "| model-b | +3.00 | 100 | 3 | 0 | 3/107 (2/62 · 1/45) |",
      "| model-a | +0.50 | 50 | 1 | 87.5 | 3/107 (2/62 · 1/45) |",
    ]);
  });

  test("Table 10 gives per-split coverage, averages over the paper's 62 and 45 and the quadrant by the medians", () => {
    // AtomicAvg = Atom / 62: A 75/62 = 1.2, B 200/62 = 3.2 (median 2.2); CompAvg = Comp / 45: A 87.5/45 = 1.9,
    // B 0/45 = 0.0 (median 0.97).
    expect(rowsOf(md, "Table 10:")).toEqual([
      "| model-b | 2/62 | 1/45 | 3.2 | 0.0 | 200 | High-Low |",
      "| model-a | 2/62 | 1/45 | 1.2 | 1.9 | 162.5 | Low-High |",
    ]);
    expect(md).toContain("AtomicAvg = Atom / 62, CompAvg = Comp / 45, the paper's divisors");
  });

  test("leaderboard.tex holds the five tables (1, 2, 8, 9, 10) as booktabs tabulars with TeX specials escaped", () => {
    const tex = readFileSync(path.join(out, "leaderboard.tex"), "utf8");
    for (const rule of ["\\toprule", "\\midrule", "\\bottomrule", "\\begin{tabular}", "\\end{tabular}"])
      expect(tex.split(rule).length - 1, rule).toBe(5);
    expect(tex).toContain("model-b & 200 & 0 & 200 & 1.9 & 66.7 & [-76.8, 210.1]");
    expect(tex).toContain("\\label{tab:questbench-table10}");
    // No unescaped % (a TeX comment) or _ outside math inside the tables.
    const body = tex.slice(tex.indexOf("\\begin{table")).replace(/\$[^$]*\$/g, "");
    expect(body).not.toMatch(/[^\\]%/);
    expect(body).not.toMatch(/[^\\]_/);
    expect(tex).toContain("$\\Delta$ = $K_{\\mathrm{act}}$ $-$ $K_{\\mathrm{opt}}$");
  });

  test("every figure is written as a non-empty SVG file and a 300-dpi PNG of it", () => {
    const names = [
      "fig2a-split-sizes",
      "fig2b-kopt-histogram",
      "fig3-atomic-vs-composite",
      "fig4-workflow-patterns",
      "fig5-top-patterns",
      "fig6-step-overhead",
      "fig7-atomic-subcategories",
    ];
    expect(readdirSync(path.join(out, "figures")).sort()).toEqual(
      names.flatMap((n) => [`${n}.png`, `${n}.svg`]),
    );
    for (const n of names) {
      const svgWidth = Number(
        /<svg [^>]*width="([\d.]+)"/.exec(readFileSync(path.join(out, "figures", `${n}.svg`), "utf8"))![1],
      );
      const png = readFileSync(path.join(out, "figures", `${n}.png`));
      expect(png.subarray(1, 4).toString(), n).toBe("PNG");
      // CSS pixels are 1/96 inch: 300 dpi is 3.125 PNG pixels per SVG pixel.
      expect(Math.abs(png.readUInt32BE(16) - (svgWidth * 300) / 96), n).toBeLessThan(1);
    }
    const files = names.map((n) => `${n}.svg`);
    for (const f of files) {
      const svg = readFileSync(path.join(out, "figures", f), "utf8");
      expect(svg, f).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg.trimEnd().endsWith("</svg>"), f).toBe(true);
      expect((svg.match(/<path /g) ?? []).length, f).toBeGreaterThan(3);
    }
  });

  test.skipIf(!existsSync(CHROMIUM))("each SVG file parses as XML in Chromium", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      for (const f of readdirSync(path.join(out, "figures")).filter((x) => x.endsWith(".svg"))) {
        const svg = readFileSync(path.join(out, "figures", f), "utf8");
        const error = await page.evaluate(
          (text) =>
            new (
              globalThis as unknown as {
                DOMParser: new () => {
                  parseFromString(
                    t: string,
                    m: string,
                  ): { querySelector(s: string): { textContent: string | null } | null };
                };
              }
            ).DOMParser()
              .parseFromString(text, "image/svg+xml")
              .querySelector("parsererror")?.textContent ?? null,
          svg,
        );
        expect(error, f).toBeNull();
      }
    } finally {
      await browser.close();
    }
  });
});

describe.skipIf(!existsSync(CHROMIUM))("report.html in headless Chromium", () => {
  test("with eight models on one point every figure draws marks and no two scatter labels overlap", async () => {
    // Eight models with the same scores: their points coincide at (37.5, 87.5), the worst case for labels;
    // one more at (100, 100), the corner.
    const names = [
      "gpt-5",
      "claude-haiku-4.5",
      "deepseek-v3.2",
      "gemini-2.5-flash",
      "qwen3-coder",
      "glm-4.6",
      "kimi-k2",
      "grok-4-fast",
    ];
    const dirs = names.map((m) =>
      writeRun(
        results(
          m,
          A.map((i) => ({ ...i, model: m })),
        ),
      ),
    );
    const perfect = A.map((i) => ({ ...i, model: "reference", score: 100, passed: true, failure: null }));
    dirs.push(writeRun(results("reference", perfect)));
    const out = mkdtempSync(path.join(tmpdir(), "qb-eight-"));
    await writeReport({ inputs: dirs, out });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`file://${path.join(out, "report.html")}`);
      const figures = await page.$$eval("figure[data-figure]", (els) =>
        els.map((el) => {
          const box = el.querySelector("svg")!.getBoundingClientRect();
          return {
            name: el.getAttribute("data-figure"),
            width: box.width,
            height: box.height,
            marks: el.querySelectorAll(".role-mark path, .role-mark text, .role-mark line").length,
          };
        }),
      );
      expect(figures).toHaveLength(7);
      for (const f of figures) {
        expect(f.width, f.name!).toBeGreaterThan(300);
        expect(f.height, f.name!).toBeGreaterThan(60); // one pattern row is a short figure
        expect(f.marks, f.name!).toBeGreaterThanOrEqual(2);
      }
      const labels = await page.$$eval(
        'figure[data-figure="fig3-atomic-vs-composite"] .mark-text.role-mark text',
        (els) =>
          els.map((el) => {
            const b = el.getBoundingClientRect();
            return { text: el.textContent, x: b.x, y: b.y, w: b.width, h: b.height };
          }),
      );
      expect(labels.map((l) => l.text).sort()).toEqual([...names, "reference"].sort());
      const plot = await page.$eval('figure[data-figure="fig3-atomic-vs-composite"] svg', (el) => {
        const b = el.getBoundingClientRect();
        return { x: b.x, y: b.y, w: b.width, h: b.height };
      });
      for (const [i, p] of labels.entries()) {
        expect(p.x, p.text!).toBeGreaterThanOrEqual(plot.x);
        expect(p.x + p.w, p.text!).toBeLessThanOrEqual(plot.x + plot.w);
        for (const q of labels.slice(i + 1))
          expect(
            p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h,
            `${p.text} overlaps ${q.text}`,
          ).toBe(false);
      }
    } finally {
      await browser.close();
    }
  }, 600_000);
});

describe("report refuses runs that cannot be compared", () => {
  test("models run on different task sets are refused, and shown with a warning under --force", async () => {
    const a = writeRun(results("model-a", A));
    const b = writeRun(
      results(
        "model-b",
        B.filter((i) => i.taskId !== "a2"),
      ),
    );
    const out = mkdtempSync(path.join(tmpdir(), "qb-x-"));
    await expect(writeReport({ inputs: [a, b], out })).rejects.toThrow(MergeError);
    await expect(writeReport({ inputs: [a, b], out })).rejects.toThrow(
      /task sets differ: .*model-b lacks a2/,
    );
    const forced = await writeReport({ inputs: [a, b], out, force: true });
    expect(forced.warnings).toEqual([expect.stringMatching(/^task sets differ/)]);
    const md = readFileSync(path.join(out, "leaderboard.md"), "utf8");
    expect(md).toContain("Warning: merged with --force");
    expect(md).toContain("3/107 (2/62 · 1/45)");
    expect(md).toContain("2/107 (1/62 · 1/45)");
    expect(readFileSync(path.join(out, "report.html"), "utf8")).toContain('class="warning"');
  });

  test("runs of different modes are refused, naming the modes", async () => {
    const a = writeRun(results("model-a", A));
    const b = writeRun(results("model-b", B, { library: "viem", naive: true }));
    await expect(
      writeReport({ inputs: [a, b], out: mkdtempSync(path.join(tmpdir(), "qb-x-")) }),
    ).rejects.toThrow(/manifest\.modes differs: "default" in .*, "library=viem, naive" in /);
  });
});

describe("drill-down", () => {
  test("amounts show in token units with symbols, the raw base units only on hover; the plan's steps are counted against K_opt", async () => {
    const usdt = "0x55d398326f99059fF775485246999027B3197955";
    const input = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: ["0x00000000000000000000000000000000000000aa", 1_500_000_000_000_000_000n],
    });
    const withTx = instance("model-a", "a1", 1, 100);
    withTx.transaction = {
      hash: "0x01",
      to: usdt,
      input,
      value: "250000000000000000",
      status: "success",
      gasUsed: "51000",
      fee: "153000000000000",
    };
    withTx.checks = [
      {
        name: "balance_change",
        weight: 100,
        critical: true,
        passed: true,
        detail: "expected -60190000000000000000, got -60190000000000000000",
      },
      {
        name: "usdt spent",
        weight: 0,
        critical: false,
        passed: true,
        detail: "Δ balanceOf(agent) of contracts.usdt: expected = -19380000000000000000",
      },
    ];
    const c1 = instance("model-a", "c1", 1, 100, { kOpt: 3, kAct: 3, kFailed: 0 });
    c1.composite!.plan = '```json\n{"plan": ["approve USDT", "swap USDT for CAKE"]}\n```';
    const out = mkdtempSync(path.join(tmpdir(), "qb-drill-"));
    await writeReport({ inputs: [writeRun(results("model-a", [withTx, c1]))], out });
    const html = readFileSync(path.join(out, "report.html"), "utf8");
    expect(html).toContain("amount: 1500000000000000000 (1.5 USDT)");
    expect(html).toContain("0.25 BNB");
    expect(html).toContain('expected = <span title="-19380000000000000000 base units">-19.38 USDT</span>');
    expect(html).toContain("0.000153 BNB");
    expect(html).toContain(
      'expected <span title="-60190000000000000000 base units">-60.19 (×10^18 base units)</span>',
    );
    // Outside tooltips and the decoded call's own argument, no raw base-unit integer is shown.
    const drill = html.slice(html.indexOf("<h2>Instances</h2>"));
    const visible = drill.replace(/title="[^"]*"/g, "").replace(/amount: \d+/g, "");
    expect(visible).not.toMatch(/\b\d{13,}\b/);
    expect(html).toContain("2 steps planned vs K_opt 3 (-1)");
    expect(html).toContain("<li>swap USDT for CAKE</li>");
  });

  test("planSteps reads the JSON plan, falls back to numbered lines, and gives null for prose", () => {
    expect(planSteps('```json\n{"plan": ["a", "b", "c"]}\n```')).toEqual(["a", "b", "c"]);
    expect(planSteps("Plan:\n1. approve\n2) swap\n- stake")).toEqual(["approve", "swap", "stake"]);
    expect(planSteps("I will do it.")).toBeNull();
  });
});

describe("figure helpers", () => {
  test("workflow patterns use the paper's action names and fold batches and verification", () => {
    expect(workflowPattern(["erc20_approve", "swap_exact_tokens_for_tokens"])).toBe("approve → swap");
    expect(workflowPattern(["erc20_transfer_fixed", "erc20_transfer_fixed", "erc20_transfer_fixed"])).toBe(
      "batch transfer",
    );
    expect(workflowPattern(["erc20_approve", "erc20_approve", "add_liquidity_tokens"])).toBe(
      "approve → add liquidity",
    );
    expect(workflowPattern(["query_bnb_balance", "wbnb_deposit", "query_erc20_balance"])).toBe(
      "wrap + verify",
    );
    expect(workflowPattern(["query_erc20_balance", "query_erc20_balance"])).toBe("batch query");
  });

  test("scatter labels of coinciding points are placed apart and inside the plot", () => {
    const points = Array.from({ length: 8 }, (_, i) => ({ model: `model-${i}`, px: 440, py: 14 }));
    const labels = placeLabels(points, 460, 400);
    const boxes = labels.map((l) => {
      const w = 7 * l.model.length + 4;
      return { x: l.align === "left" ? l.lx : l.lx - w, y: l.ly - 7, w, h: 14 };
    });
    for (const b of boxes) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.w).toBeLessThanOrEqual(460);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [p, q] = [boxes[i]!, boxes[j]!];
        expect(p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h).toBe(false);
      }
  });
});
