import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { describe, expect, test } from "vitest";
import type { RunResults } from "../src/results/types.ts";
import { QUESTBENCH_ONLY_FLAGS } from "../src/run/vitestArgv.mjs";
import { RUN_FLAGS } from "../src/runOptions.ts";
import { PROJECT_ROOT } from "../src/tasks/files.ts";
import { projectCopy } from "./helpers/cli.ts";

// `npx vitest` in the repository is the benchmark (README "Plain Vitest and watch mode"): the unit
// suite runs only when named, the options come from QUESTBENCH_*, --mode and flags after `--`, and
// bad input is one line, as under the CLI.
const vitestBin = path.join(PROJECT_ROOT, "node_modules/vitest/vitest.mjs");
const vitest = (args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)(process.execPath, [vitestBin, "run", ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, CI: "1", ...env },
  }).then(
    (r) => ({ code: 0, stdout: stripVTControlCharacters(r.stdout), stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: stripVTControlCharacters(e.stdout),
      stderr: e.stderr,
    }),
  );
const readResults = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8")) as RunResults;

describe("plain npx vitest", () => {
  test("--mode reference runs only the benchmark and writes results.json and the score table, with --reporter=dot too", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "qb-plain-"));
    const r = await vitest(["--mode", "reference", "--reporter=dot"], {
      QUESTBENCH_TASKS: "erc20_approve",
      QUESTBENCH_OUT: out,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // One test file (the benchmark's), one test: no unit test ran beside it.
    expect(r.stdout).toMatch(/Test Files\s+1 passed \(1\)/);
    expect(r.stdout).toMatch(/Tests\s+1 passed \(1\)/);
    // The dot reporter's stdout is its own: the score table goes to stderr, no line per instance.
    expect(r.stderr).toMatch(/Paper atomic\s+100 \/ 100/);
    expect(r.stdout).not.toMatch(/erc20_approve|Paper atomic/);
    expect(readResults(out).instances.map((i) => [i.taskId, i.score])).toEqual([["erc20_approve", 100]]);
  }, 600_000);

  test("stdout is the reporter's: --reporter=json parses; the default reporter shows each instance once", async () => {
    const tasks = "erc20_approve,bnb_transfer_basic";
    const [json, plain] = await Promise.all(
      [["--reporter=json"], []].map((extra) =>
        vitest(["--mode", "reference", ...extra], {
          QUESTBENCH_TASKS: tasks,
          QUESTBENCH_OUT: mkdtempSync(path.join(tmpdir(), "qb-plain-")),
        }),
      ),
    );
    expect(json!.code, json!.stderr).toBe(0);
    const report = JSON.parse(json!.stdout) as { numPassedTests: number };
    expect(report.numPassedTests).toBe(2);
    expect(json!.stderr).toMatch(/Paper atomic\s+200 \/ 200/);
    expect(plain!.code, plain!.stderr).toBe(0);
    for (const id of tasks.split(","))
      expect(
        `${plain!.stdout}\n${plain!.stderr}`.split("\n").filter((line) => line.includes(id)),
        id,
      ).toHaveLength(1);
  }, 600_000);

  test("watch mode writes to .questbench/watch/<model> and its own writes start no second run", async () => {
    const root = projectCopy();
    const child = spawn(
      process.execPath,
      [path.join(root, "node_modules/vitest/vitest.mjs"), "--watch", "--mode", "reference"],
      {
        cwd: root,
        env: { ...process.env, QUESTBENCH_TASKS: "erc20_approve", CI: "" },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const runs = () => stderr.split("Results: ").length - 1;
    try {
      for (let t = 0; t < 240 && runs() === 0; t++) await new Promise((r) => setTimeout(r, 500));
      expect(stderr).toContain("Results: .questbench/watch/reference/results.json");
      // The gold modules the run imported were written during it (an empty cache): without the
      // watcher's ignore list each write started a second run, seconds after the first.
      expect(readdirSync(path.join(root, ".questbench/gold-modules")).length).toBeGreaterThan(0);
      expect(existsSync(path.join(root, ".questbench/results"))).toBe(false);
      await new Promise((r) => setTimeout(r, 15_000));
      expect(runs(), stderr.slice(-2000)).toBe(1);
    } finally {
      child.kill("SIGTERM");
    }
  }, 600_000);

  test("flags after -- select the model and the split", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "qb-plain-"));
    const r = await vitest([
      "--",
      "--model=reference",
      "--split=paper",
      "--tasks=erc20_approve",
      `--out=${out}`,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Test Files\s+1 passed \(1\)/);
    // The manifest's split covers the folder's instances (one atomic task); the selection is this run's.
    expect(readResults(out).manifest).toMatchObject({
      model: "reference",
      split: "atomic",
      selection: { split: "paper", tasks: ["erc20_approve"] },
    });
  }, 600_000);

  test("a missing API key is one line and exit code 1, before anything starts", async () => {
    const r = await vitest(["--mode", "claude-sonnet"], {
      ANTHROPIC_API_KEY: "",
      QUESTBENCH_TASKS: "erc20_approve",
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^questbench: ANTHROPIC_API_KEY is not set/),
    ]);
    expect(r.stdout + r.stderr).not.toMatch(/No test files found|\n\s+at /);
  }, 600_000);

  test("a misspelled QUESTBENCH_ variable or a run flag before -- is one line naming the right form, exit code 2", async () => {
    const variable = await vitest(["--mode", "reference"], { QUESTBENCH_TASK: "erc20_approve" });
    expect(variable.code).toBe(2);
    expect(variable.stderr.trim()).toBe(
      `questbench: unknown variable QUESTBENCH_TASK; did you mean 'QUESTBENCH_TASKS'? (see README "Running")`,
    );
    // Through npx, as a user types it: the repository's .npmrc answers before Vitest's parser throws.
    const flag = await promisify(execFile)("npx", ["vitest", "run", "--model=claude-sonnet"], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, CI: "1" },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim()).toBe(
      `questbench: --model is a questbench flag, not Vitest's: put it after -- (npx vitest -- --model=claude-sonnet) or use --mode claude-sonnet (see README "Plain Vitest and watch mode")`,
    );
    // Every run flag Vitest does not know itself is answered so (--cache and --shard are Vitest's).
    expect([...QUESTBENCH_ONLY_FLAGS].sort()).toEqual(
      RUN_FLAGS.filter((f) => f !== "cache" && f !== "shard").sort(),
    );
  }, 600_000);

  test("an unknown model or a bad flag after -- is one line and exit code 2", async () => {
    const unknown = await vitest(["--mode", "no-such-model"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^questbench: unknown model 'no-such-model'/),
    ]);
    const bad = await vitest(["--", "--split=both"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      `questbench: --split must be atomic, composite, paper, hard or all, got 'both' (see README "Running")`,
    );
  }, 600_000);
});
