import { execFile, spawn } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readFolder } from "../src/results/folder.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";
import { exportViewer } from "../src/viewer/export.ts";
import { RunFolder } from "../src/viewer/runFolder.ts";
import { startViewer, type ViewerServer } from "../src/viewer/server.ts";
import { CHROMIUM, launchChromium } from "./helpers/browser.ts";
import { scriptedDirOfCases } from "./helpers/cases.ts";

const run = promisify(execFile);
const bin = path.join(PROJECT_ROOT, "bin/questbench.mjs");
const env = { ...process.env, QUESTBENCH_OPTIONS: "", QUESTBENCH_MODEL: "" };
const TASKS = "erc20_approve,composite_batch_transfer_2_bnb";
const COMPOSITE = "composite_batch_transfer_2_bnb";

/** Runs the benchmark CLI into `out` (a fresh directory by default) and returns it. */
async function benchmark(
  model: string,
  tasks = TASKS,
  out = mkdtempSync(path.join(tmpdir(), "qb-view-")),
  flags: string[] = [],
) {
  await run(process.execPath, [bin, "--model", model, "--tasks", tasks, "--out", out, ...flags], {
    cwd: PROJECT_ROOT,
    env,
  }).catch((e) => {
    throw new Error(`${e.message}\n${e.stdout}\n${e.stderr}`);
  });
  return out;
}

const launch = launchChromium;

describe("questbench view", () => {
  let reference: string;
  let weak: string;
  let browser: Browser | undefined;
  let viewer: ViewerServer | undefined;

  beforeAll(async () => {
    // The weak model: the atomic task's wrong-recipient case, the composite's too-small second payment.
    const weakDir = scriptedDirOfCases("wrong_recipient");
    cpSync(
      path.join(PROJECT_ROOT, `tasks/composite/${COMPOSITE}/cases/wrong_amount`),
      path.join(weakDir, COMPOSITE),
      { recursive: true },
    );
    [reference, weak] = await Promise.all([benchmark("reference"), benchmark(`scripted:${weakDir}`)]);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await viewer?.close();
  });

  test("the index keeps each instance's fields as recorded, and reads a line only once it is whole", () => {
    for (const dir of [reference, weak]) {
      const folder = new RunFolder(dir);
      const heads = folder.refresh().changed;
      const recorded = readFolder(dir);
      expect(heads).toHaveLength(recorded.length);
      for (const h of heads) {
        const i = recorded.find((x) => x.taskId === h.taskId)!;
        expect(h).toMatchObject({
          split: i.split,
          score: i.score,
          passed: i.passed,
          failure: i.failure ? { class: i.failure.class } : null,
          safety: i.safety,
        });
        expect(folder.instance(h.id)).toEqual(JSON.parse(JSON.stringify(i)));
      }
    }
    // A run appending: half a line is not read, the rest is, and a later line of the same instance
    // replaces it under the same id.
    const dir = mkdtempSync(path.join(tmpdir(), "qb-view-append-"));
    const line = readFileSync(path.join(weak, "instances.jsonl"), "utf8").split("\n")[0]!;
    const folder = new RunFolder(dir);
    appendFileSync(path.join(dir, "instances.jsonl"), line.slice(0, 1000));
    expect(folder.refresh().changed).toEqual([]);
    appendFileSync(path.join(dir, "instances.jsonl"), `${line.slice(1000)}\n`);
    const [first] = folder.refresh().changed;
    expect(first).toMatchObject({ id: 0, taskId: JSON.parse(line).taskId });
    appendFileSync(path.join(dir, "instances.jsonl"), `${line.replace('"score":', '"score":7,"x":')}\n`);
    expect(folder.refresh().changed).toEqual([expect.objectContaining({ id: 0, score: 7 })]);
    expect(folder.instances).toHaveLength(1);
  });

  test.skipIf(!existsSync(CHROMIUM))(
    "filters to failures, opens a composite's rounds and checks, diffs it against the other model, and shows a run's new instance without reload",
    async () => {
      const liveRoot = mkdtempSync(path.join(tmpdir(), "qb-view-live-"));
      viewer = await startViewer({ folders: [reference, weak, liveRoot], pollMs: 200 });
      browser = await launch();
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      const requests: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      await page.goto(viewer.url);
      await page.waitForSelector("body[data-ready]");

      // The leaderboard: both models, the reference first (sorted by Total), with units in the headers.
      const board = await page.$$eval("#board tbody tr", (trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
      );
      expect(board.map((r) => r[0])).toEqual(["reference", expect.stringMatching(/^scripted:/)]);
      const headers = await page.$$eval("#board th", (ths) => ths.map((th) => th.textContent));
      expect(headers).toEqual(
        expect.arrayContaining(["Atom", "Comp", "Total", "Safety (%)", "Exec. cost (bps)", "pass^k (%)"]),
      );
      expect(board[0]![headers.indexOf("Total")]).toBe("200");
      // Sorting by Exec. cost puts the weak model's cost first (a negative cost is the lowest).
      await page.click('#board th[data-key="costBps"]');
      await page.click('#board th[data-key="costBps"]');
      expect(await page.$eval("#board tbody tr td", (td) => td.textContent)).toMatch(/^scripted:/);

      // Failures only: the reference's cells dim, both tasks still listed (the weak model failed both).
      await page.selectOption("#f-failure", "failed");
      const cells = await page.$$eval(`tr[data-task-id="${COMPOSITE}"] td.cell`, (tds) =>
        tds.map((td) => ({ run: td.getAttribute("data-run"), dim: td.classList.contains("dim") })),
      );
      expect(cells.filter((c) => !c.dim)).toHaveLength(1);
      expect(await page.textContent("#count")).toMatch(/^2 tasks · 2 instances match$/);
      await page.selectOption("#f-split", "composite");
      expect(
        await page.$$eval("#grid tbody tr", (trs) => trs.map((tr) => tr.getAttribute("data-task-id"))),
      ).toEqual([COMPOSITE]);

      // The composite instance: its rounds, each with its decoded transaction, and why each check failed.
      await page.click(`tr[data-task-id="${COMPOSITE}"] td.cell:not(.dim)`);
      await page.waitForSelector("#instance .rounds .round");
      const rounds = await page.$$eval("#instance .round", (els) => els.map((el) => el.textContent ?? ""));
      expect(rounds).toHaveLength(2);
      expect(rounds[1]).toContain("(empty calldata: plain transfer)");
      const failed = await page.$$eval("#instance tr.check.fail", (trs) =>
        trs.map((tr) => tr.textContent ?? ""),
      );
      expect(
        failed.some((t) => /addr2 received.*expected = 97000000000000000, actual 9700000000000000/.test(t)),
      ).toBe(true);
      const ledger = await page.textContent("#instance section.execution");
      expect(ledger).toMatch(/Exec\. cost \(bps of notional\)\s*-?\d/);
      expect(ledger).toMatch(/gold: -?[\d.]+ USDT/);
      // Who gained what beside the gold: the recipient paid a tenth is a row that differs.
      const rows = await page.$$eval("#instance table.ledger tr.differs", (trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
      );
      expect(rows).toContainEqual([expect.any(String), "BNB (wei)", "9700000000000000", "97000000000000000"]);

      // The diff against the reference on the same instance: the check that differs, the replies line by line.
      await page.selectOption("#diff-select", { label: "reference" });
      await page.waitForSelector("#diff table");
      const differing = await page.$$eval("#diff tr.diffcheck.differs td:first-child", (tds) =>
        tds.map((td) => td.textContent),
      );
      expect(differing).toEqual(expect.arrayContaining(["addr2 received", "agent paid"]));
      expect(await page.$$eval("#diff .diffline.add", (els) => els.length)).toBeGreaterThan(0);
      expect(await page.$$eval("#diff .diffline.del", (els) => els.length)).toBeGreaterThan(0);

      // Live: a run writing into a folder under the viewer; its instance appears in the open page.
      await page.click("#close");
      await page.selectOption("#f-failure", "");
      await page.selectOption("#f-split", "");
      await page.evaluate("window.marker = 1");
      const cli = spawn(
        process.execPath,
        [bin, "--model", "reference", "--tasks", "bnb_transfer_basic", "--out", path.join(liveRoot, "live")],
        { cwd: PROJECT_ROOT, env, stdio: "ignore" },
      );
      const exited = new Promise<number | null>((resolve) => cli.once("exit", resolve));
      try {
        await page.waitForSelector('tr[data-task-id="bnb_transfer_basic"] td.cell', { timeout: 300_000 });
      } finally {
        expect(await exited).toBe(0);
      }
      expect(await page.evaluate("window.marker")).toBe(1);
      await page.waitForFunction("document.querySelectorAll('#board tbody tr').length === 3");
      // After the run's last rewrite of instances.jsonl the instance is still there once.
      await page.waitForTimeout(600);
      expect(await page.$$eval('tr[data-task-id="bnb_transfer_basic"] td.cell', (tds) => tds.length)).toBe(1);
      expect(errors).toEqual([]);
      expect(requests.every((u) => u.startsWith(viewer!.url))).toBe(true);
    },
    600_000,
  );

  test.skipIf(!existsSync(CHROMIUM))(
    "a model under --protocol tools is a row of its own beside its code row, and its instance shows every tool call",
    async () => {
      const tools = await benchmark("reference", TASKS, undefined, ["--protocol", "tools"]);
      const server = await startViewer({ folders: [reference, tools], pollMs: 60_000 });
      try {
        browser ??= await launch();
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));
        await page.goto(server.url);
        await page.waitForSelector("body[data-ready]");
        const board = await page.$$eval("#board tbody tr td:first-child", (tds) =>
          tds.map((td) => td.textContent),
        );
        expect([...board].sort()).toEqual(["reference", "reference (tools)"]);
        await page.click(`tr[data-task-id="${COMPOSITE}"] td.cell[data-run="1"]`);
        await page.waitForSelector("#instance section.tools");
        const calls = await page.$$eval("#instance section.tools table.calls tbody tr", (trs) =>
          trs.map((tr) => tr.querySelectorAll("td")[1]?.textContent),
        );
        expect(calls).toEqual(["send_transaction", "send_transaction", "finish"]);
        expect(await page.textContent("#instance section.tools")).toMatch(/ended by\s*finish/);
        expect(errors).toEqual([]);
      } finally {
        await server.close();
      }
    },
    600_000,
  );

  test.skipIf(!existsSync(CHROMIUM))("the static export opens from disk and shows an instance", async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), "qb-view-export-")), "site");
    mkdirSync(out);
    expect(exportViewer({ folders: [reference, weak], out })).toMatchObject({ runs: 2, instances: 4 });
    browser ??= await launch();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`file://${path.join(out, "index.html")}`);
    await page.waitForSelector("body[data-ready]");
    expect(await page.$$eval("#board tbody tr", (trs) => trs.length)).toBe(2);
    await page.click('tr[data-task-id="erc20_approve"] td.cell[data-run="1"]');
    await page.waitForSelector("#instance section.transaction");
    expect(await page.textContent("#instance section.transaction")).toMatch(
      /approve\(spender: 0x[0-9a-fA-F]{40}/,
    );
    expect(await page.textContent("#instance section.module")).toContain("executeSkill");
    expect(errors).toEqual([]);
  });
});
