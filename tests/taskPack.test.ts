import { execFile } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import type { RunResults } from "../src/results/types.ts";
import { PROJECT_ROOT, TASKS_DIR } from "../src/tasks/files.ts";

// Task packs (README "Write your own task"): folders of tasks outside the repository, added with
// --tasks-dir and checked with `questbench validate`.
const bin = path.join(PROJECT_ROOT, "bin/questbench.mjs");
const work = mkdtempSync(path.join(tmpdir(), "qb-pack-"));
// As root the sandbox runs the pack's answers under unprivileged uids that must read them.
chmodSync(work, 0o755);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const questbench = (args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)(process.execPath, [bin, ...args], { cwd: work, env: { ...process.env, ...env } }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

/**
 * Copies a task of the package into a pack folder under a new id (`into`: the task's folder, relative
 * to the pack), keeping only the named cases; `edit` rewrites its task.json text.
 */
function packTask(
  pack: string,
  from: string,
  into: string,
  options: { cases?: string[]; edit?: (json: string) => string } = {},
) {
  const target = path.join(pack, into);
  cpSync(path.join(TASKS_DIR, from), target, { recursive: true });
  rmSync(path.join(target, "cases"), { recursive: true, force: true });
  for (const c of options.cases ?? [])
    cpSync(path.join(TASKS_DIR, from, "cases", c), path.join(target, "cases", c), { recursive: true });
  const file = path.join(target, "task.json");
  const id = path.basename(into);
  const json = readFileSync(file, "utf8").replace(/"id": "[^"]+"/, `"id": "${id}"`);
  writeFileSync(file, (options.edit ?? ((x) => x))(json));
  return file;
}

/** A valid pack: one task in the atomic/ layout with a wrong-answer case, one task directly in the pack. */
const good = path.join(work, "good-pack");
packTask(good, "atomic/erc20_approve", "atomic/my_approve", { cases: ["wrong_recipient.md"] });
packTask(good, "atomic/bnb_transfer_basic", "my_transfer");

describe("a task pack outside the repository", () => {
  test("runs with --tasks-dir beside the package's tasks as a set of its own, never in a paper total, and the manifest records the pack", async () => {
    const out = path.join(work, "out");
    const r = await questbench([
      "--tasks-dir",
      good,
      "--tasks",
      "my_approve,my_transfer,erc20_approve",
      "--out",
      out,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(path.join(out, "results.json"), "utf8")) as RunResults;
    expect(results.instances.map((i) => [i.taskId, i.score]).sort()).toEqual([
      ["erc20_approve", 100],
      ["my_approve", 100],
      ["my_transfer", 100],
    ]);
    expect(results.manifest.taskPacks).toEqual([good]);
    expect(Object.keys(results.manifest.taskFiles)).toContain(path.join(good, "atomic/my_approve/task.json"));
    // The pack's two tasks are `custom`: the paper's totals hold erc20_approve alone.
    expect(results.instances.map((i) => [i.taskId, i.set]).sort()).toEqual([
      ["erc20_approve", "paper"],
      ["my_approve", "custom"],
      ["my_transfer", "custom"],
    ]);
    expect(results.summary.total).toEqual({ score: 100, max: 100, passed: 1, count: 1, tasks: 1 });
    expect(results.summary.custom?.total).toEqual({ score: 200, max: 200, passed: 2, count: 2, tasks: 2 });
    expect(r.stdout).toMatch(/^Paper atomic +100 \/ 100 +1 \/ 1 +100\.0$/m);
    expect(r.stdout).toMatch(/^Custom atomic +200 \/ 200 +2 \/ 2 +100\.0$/m);
    expect(r.stdout).not.toMatch(/Paper total|Paper subset/);

    // The report: coverage 1/107 of the paper's tasks, the pack's apart in its own columns.
    const report = await questbench(["report", out, "--out", path.join(work, "report")]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain("Total 100, Avg 0.9 (Total / 107)");
    expect(report.stdout).toContain("tasks 1/107; Custom 200 (2 task-pack tasks)");
    const table1 = readFileSync(path.join(work, "report", "leaderboard.md"), "utf8");
    expect(table1).toMatch(/\| Custom \| Custom tasks \|/);
    expect(table1).toContain("1/107 (1/62 · 0/45)");
  }, 600_000);

  test("validate passes a valid pack: gold answers on two seeds, each case as its front matter says", async () => {
    const r = await questbench(["validate", good]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("✓ my_approve");
    expect(r.stdout).toContain("✓ my_transfer");
    expect(r.stdout).toContain(`${good}: 2 task(s), 1 case(s), gold answers on seed(s) 1, 2: valid`);
  }, 600_000);

  test("validate catches a broken pack: a bad placeholder at file:line:column, a case scoring against its front matter", async () => {
    const broken = path.join(work, "broken-pack");
    const specFile = packTask(broken, "atomic/erc20_approve", "atomic/bad_placeholder", {
      edit: (json) => json.replace("exactly {{x}} USDT", "exactly {{amout}} USDT"),
    });
    packTask(broken, "atomic/erc20_approve", "atomic/bad_case", { cases: ["wrong_recipient.md"] });
    const caseFile = path.join(broken, "atomic/bad_case/cases/wrong_recipient.md");
    // A wrong answer whose front matter claims a full score.
    writeFileSync(caseFile, readFileSync(caseFile, "utf8").replace("score: below 60", "score: 100"));
    const lines = readFileSync(specFile, "utf8").split("\n");
    const line = lines.findIndex((l) => l.includes("{{amout}}"));
    const column = lines[line]!.indexOf('"') + 1;

    const r = await questbench(["validate", broken]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `${specFile}:${line + 1}:${column}: templates[0]: placeholder {{amout}} names no parameter`,
    );
    expect(r.stdout).toMatch(
      new RegExp(
        `${caseFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: seed 1: wrong_recipient \\(wrong_recipient\\): score \\d+, expected 100`,
      ),
    );
    expect(r.stdout).toContain(`${broken}: 2 task(s), 1 case(s), gold answers on seed(s) 1, 2: 3 problem(s)`);
  }, 600_000);

  test("validate prints every problem with its reason: a built-in id, a missing split, a misspelled check, a number for a decimal", async () => {
    const pack = path.join(work, "reasons-pack");
    const clash = packTask(pack, "atomic/erc20_approve", "atomic/erc20_approve");
    const noSplit = packTask(pack, "atomic/erc20_approve", "atomic/no_split", {
      edit: (json) => json.replace(/\n\s*"split": "atomic",/, ""),
    });
    const badCheck = packTask(pack, "atomic/erc20_approve", "atomic/bad_check", {
      edit: (json) => json.replace('"check": "allowanceIs"', '"check": "allowanceIss"'),
    });
    const minNumber = packTask(pack, "atomic/erc20_approve", "atomic/min_number", {
      edit: (json) => json.replace('"min": "100"', '"min": 100'),
    });
    const r = await questbench(["validate", pack]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n").map((l) => l.trim());
    expect(lines).toContain(
      `${clash}: id: 'erc20_approve' is the id of a built-in task (tasks/atomic/erc20_approve/task.json): a pack adds tasks, it cannot replace one; rename the task's folder and its id`,
    );
    expect(lines).toContain(`${noSplit}:1:1: (root): must have required property 'split'`);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /bad_check\/task\.json:\d+:\d+: checks\[3\]\.check: unknown check 'allowanceIss'; did you mean 'allowanceIs'\?/,
      ),
    );
    expect(lines.find((l) => l.startsWith(badCheck))).toBeDefined();
    expect(lines).toContainEqual(
      expect.stringMatching(
        /min_number\/task\.json:\d+:\d+: parameters\.x\.min: must be a string: decimal amounts are written as strings \("100"\), so they keep every digit$/,
      ),
    );
    expect(lines.find((l) => l.startsWith(minNumber))).toBeDefined();
    expect(lines.at(-2)).toBe(`${pack}: 4 task(s), 0 case(s), gold answers on seed(s) 1, 2: 4 problem(s)`);
  }, 600_000);

  test("list prints the tasks a run with the same flags selects: id, split, set, category, K_opt, difficulty", async () => {
    const r = await questbench([
      "list",
      "--tasks-dir",
      good,
      "--tasks",
      "my_approve,composite_approve_add_liquidity",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n").map((l) => l.split(/\s{2,}/))).toEqual([
      ["id", "split", "set", "category", "K_opt", "difficulty"],
      ["composite_approve_add_liquidity", "composite", "paper", "composite", "2", "medium"],
      ["my_approve", "atomic", "custom", "basic_transactions", "—", "easy"],
      ["2 task(s)"],
      [""],
    ]);
    const atomic = await questbench(["list", "--split", "atomic"]);
    expect(atomic.stdout).toContain("\n62 task(s)\n");
    const unknown = await questbench(["list", "--tasks", "erc20_aprove"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      "questbench: unknown task id(s): erc20_aprove; did you mean 'erc20_approve'? (see questbench --help)",
    );
  }, 600_000);

  test("a pack task whose id the package already has is refused in one line before anything starts", async () => {
    const clash = path.join(work, "clash-pack");
    mkdirSync(clash);
    const file = packTask(clash, "atomic/bnb_transfer_basic", "atomic/erc20_approve");
    const r = await questbench(["--tasks", "erc20_approve"], { QUESTBENCH_TASKS_DIR: clash });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `questbench: ${file}: id: duplicate id 'erc20_approve' (also in tasks/atomic/erc20_approve/task.json)`,
    );
  }, 600_000);
});
