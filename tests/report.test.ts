import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { writeReport } from "../src/reporting/report.ts";
import { MergeError } from "../src/results/merge.ts";
import type { RunResults } from "../src/results/types.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";
import { CHROMIUM, launchChromium } from "./helpers/browser.ts";
import { scriptedDirOfCases } from "./helpers/cases.ts";

const run = promisify(execFile);
const bin = path.join(PROJECT_ROOT, "bin/questbench.mjs");
const env = { ...process.env, QUESTBENCH_OPTIONS: "", QUESTBENCH_MODEL: "" };
const TASKS = "bnb_transfer_basic,erc20_transfer_fixed,query_bnb_balance,composite_wrap_unwrap_cycle";

/** Runs the benchmark CLI into a fresh directory and returns it. */
async function benchmark(model: string, extra: string[] = []): Promise<string> {
  const out = mkdtempSync(path.join(tmpdir(), "qb-report-"));
  await run(
    process.execPath,
    [bin, "--model", model, "--tasks", TASKS, "--seed", "3", "--out", out, ...extra],
    { cwd: PROJECT_ROOT, env },
  ).catch((e) => {
    // A weak model makes no test fail; any non-zero exit is a harness problem worth seeing.
    throw new Error(`${e.message}\n${e.stdout}\n${e.stderr}`);
  });
  return out;
}

describe("questbench report", () => {
  let reference: string;
  let weak: string;
  let report: Awaited<ReturnType<typeof writeReport>>;
  const out = mkdtempSync(path.join(tmpdir(), "qb-report-out-"));

  beforeAll(async () => {
    // The weak model answers atomic tasks with 3 %-too-much mutants and the composite with 4 rounds.
    const weakDir = scriptedDirOfCases("wrong_amount");
    const { cpSync } = await import("node:fs");
    cpSync(
      path.join(PROJECT_ROOT, "tasks/atomic/query_bnb_balance/cases/wrong_answer_value.md"),
      path.join(weakDir, "query_bnb_balance.md"),
    );
    cpSync(path.join(PROJECT_ROOT, "tests/scripted/slow_but_right"), weakDir, { recursive: true });
    [reference, weak] = await Promise.all([benchmark("reference"), benchmark(`scripted:${weakDir}`)]);
    report = await writeReport({ inputs: [reference, weak], out });
  }, 600_000);

  test("the leaderboard has both models, the reference first with every task at 100", () => {
    const md = readFileSync(path.join(out, "leaderboard.md"), "utf8");
    expect(report.rows.map((r) => r.model)).toEqual(["reference", expect.stringMatching(/^scripted:/)]);
    expect(report.rows[0]).toMatchObject({
      atomic: 300,
      composite: 100,
      total: 400,
      avg: 100,
      passed: 4,
      instances: 4,
    });
    expect(report.rows[1]!.atomic).toBeLessThan(180);
    expect(report.rows[1]!.composite).toBe(50);
    expect(md).toContain(
      // No hard task ran: no Hard columns. The reference is the gold answer: cost 0 bps, gas × 1.
      "| 1 | reference | 300 | 100 | 400 | 3.7 | 100.0 | [100.0, 100.0] | 100% | 0.0 | 1.00 | 4/107 (3/62 · 1/45) | default |",
    );
    expect(md).toMatch(/\| 2 \| scripted:\S+ \| /);
    // Beyond the paper: pass^k per split, and the two models compared over the same 4 tasks (one instance each).
    expect(md).toContain("| reference | Atomic | 3 | 1 | 100.0% | 100.0% | 100.0% |");
    expect(md).toMatch(
      /\| reference \| scripted:\S+ \| 4 \(4\) \| \+\d+\.\d \| \[[+-]?\d+\.\d, \+\d+\.\d\] \| \[\+?\d+\.\d, \+\d+\.\d\] \| \d\/0\/\d \| /,
    );
    const html = readFileSync(path.join(out, "report.html"), "utf8");
    expect(html).toContain('data-table="passk"');
    expect(html).toContain('data-table="pairs"');
  });

  test("merging refuses runs whose manifests disagree, naming the field", async () => {
    const results = JSON.parse(readFileSync(path.join(weak, "results.json"), "utf8")) as RunResults;
    const otherWorld = mkdtempSync(path.join(tmpdir(), "qb-world-"));
    results.manifest.worldId = "sha256:another-world";
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(otherWorld, "results.json"), JSON.stringify(results));
    await expect(
      writeReport({ inputs: [reference, otherWorld], out: mkdtempSync(path.join(tmpdir(), "qb-x-")) }),
    ).rejects.toThrow(MergeError);
    await expect(
      writeReport({ inputs: [reference, otherWorld], out: mkdtempSync(path.join(tmpdir(), "qb-x-")) }),
    ).rejects.toThrow(/manifest\.worldId differs/);
    const forced = await writeReport({
      inputs: [reference, otherWorld],
      out: mkdtempSync(path.join(tmpdir(), "qb-x-")),
      force: true,
    });
    expect(forced.warnings).toEqual([expect.stringContaining("manifest.worldId differs")]);
  });

  test.skipIf(!existsSync(CHROMIUM))("report.html renders every figure in headless Chromium", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const requests: string[] = [];
      page.on("request", (r) => {
        if (!r.url().startsWith("file:")) requests.push(r.url());
      });
      await page.goto(`file://${path.join(out, "report.html")}`);
      const figures = await page.$$eval("figure[data-figure]", (els) =>
        els.map((el) => {
          const svg = el.querySelector("svg");
          const box = svg?.getBoundingClientRect();
          return {
            name: el.getAttribute("data-figure"),
            width: box?.width ?? 0,
            height: box?.height ?? 0,
            marks: svg?.querySelectorAll("path, circle, rect, text").length ?? 0,
          };
        }),
      );
      expect(figures.map((f) => f.name)).toEqual([
        "fig2a-split-sizes",
        "fig2b-kopt-histogram",
        "fig3-atomic-vs-composite",
        "fig4-workflow-patterns",
        "fig5-top-patterns",
        "fig6-step-overhead",
        "fig7-atomic-subcategories",
      ]);
      for (const f of figures) {
        expect(f.width, f.name!).toBeGreaterThan(100);
        // A bar chart is one 18 px step per bar: a run with one workflow pattern draws a short one.
        expect(f.height, f.name!).toBeGreaterThan(60);
        expect(f.marks, f.name!).toBeGreaterThan(10);
      }
      // A reviewer's look at each figure as a paper would take it: the canvas cropped to what it draws
      // (no empty strip wider than 15 % on the right or below; Figure 3's canvas was once twice its
      // plot), a title without "Figure N" (the paper's caption numbers it), and named axes.
      const review = await page.$$eval("figure[data-figure]", (els) =>
        els.map((el) => {
          const svg = el.querySelector("svg")!;
          const box = svg.getBoundingClientRect();
          let right = 0;
          let bottom = 0;
          for (const m of svg.querySelectorAll("g text, g path:not(.background), g line")) {
            const r = m.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;
            right = Math.max(right, r.right - box.left);
            bottom = Math.max(bottom, r.bottom - box.top);
          }
          const texts = [...svg.querySelectorAll("text")].map((t) => t.textContent ?? "");
          return {
            name: el.getAttribute("data-figure")!,
            width: box.width,
            height: box.height,
            right,
            bottom,
            title: svg.querySelector(".role-title-text")?.textContent ?? "",
            axisTitles: [...svg.querySelectorAll(".role-axis-title text")].map((t) => t.textContent),
            texts,
          };
        }),
      );
      for (const f of review) {
        expect(f.width - f.right, `${f.name}: empty strip on the right`).toBeLessThan(f.width * 0.15);
        expect(f.height - f.bottom, `${f.name}: empty strip below`).toBeLessThan(f.height * 0.15);
        expect(f.right, `${f.name}: drawn past the canvas`).toBeLessThanOrEqual(f.width + 1);
        expect(f.title, f.name).not.toBe("");
        expect(
          f.texts.filter((t) => /Figure\s*\d/.test(t)),
          f.name,
        ).toEqual([]);
        expect(f.axisTitles.length, `${f.name}: axis titles`).toBeGreaterThanOrEqual(1);
        // Numbers as a reader expects them: no "10700.0", no bare "NaN".
        expect(
          f.texts.filter((t) => /^\d+\.0$|NaN/.test(t)),
          f.name,
        ).toEqual([]);
      }
      expect(review.find((f) => f.name === "fig3-atomic-vs-composite")?.axisTitles).toEqual([
        "AtomicAvg",
        "CompositeAvg",
      ]);
      expect(await page.locator("details.instance").count()).toBe(8);
      expect(await page.locator("table.leaderboard tr").count()).toBe(3);
      expect(await page.locator("table.per-task tr").count()).toBe(5); // header + 4 tasks
      expect(requests).toEqual([]); // self-contained: no network
      const shot = path.join(PROJECT_ROOT, ".questbench", "report-screenshot.png");
      await page.screenshot({ path: shot, fullPage: false });
      expect(existsSync(shot)).toBe(true);
    } finally {
      await browser.close();
    }
  });

  test("two shards merge into results identical to the unsharded run; a shard can write JUnit", async () => {
    const junit = path.join(mkdtempSync(path.join(tmpdir(), "qb-junit-")), "junit.xml");
    const [one, two] = await Promise.all([
      benchmark("reference", ["--shard", "1/2", "--junit", junit]),
      benchmark("reference", ["--shard", "2/2"]),
    ]);
    const shardIds = [one, two].map((dir) =>
      (JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8")) as RunResults).instances.map(
        (i) => i.taskId,
      ),
    );
    expect(shardIds[0]!.length + shardIds[1]!.length).toBe(4);
    expect(shardIds[0]!.filter((id) => shardIds[1]!.includes(id))).toEqual([]);
    const merged = await writeReport({
      inputs: [one, two],
      out: mkdtempSync(path.join(tmpdir(), "qb-merged-")),
    });
    const unsharded = JSON.parse(readFileSync(path.join(reference, "results.json"), "utf8")) as RunResults;
    const essence = (r: RunResults) => ({
      summary: r.summary,
      instances: r.instances.map((i) => ({
        taskId: i.taskId,
        seed: i.seed,
        epoch: i.epoch,
        score: i.score,
        params: i.params,
        checks: i.checks,
        transaction: i.transaction?.input,
        answer: i.answer,
      })),
    });
    expect(essence(merged.merged[0]!.results)).toEqual(essence(unsharded));
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain("<testsuites");
    expect((xml.match(/<testcase /g) ?? []).length).toBe(shardIds[0]!.length);
  }, 600_000);

  test("the drill-down decodes calldata with the world's ABIs", () => {
    const html = readFileSync(path.join(out, "report.html"), "utf8");
    expect(html).toMatch(/transfer\(to: 0x[0-9a-fA-F]{40}, (amount|value): \d+ \([\d.]+ [A-Z]+\)\)/);
    expect(html).toMatch(/\d+ steps? planned vs K_opt \d/);
    expect(html).toContain("withdraw(");
  });
});
