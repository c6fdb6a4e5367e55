import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { describe, expect, test } from "vitest";
import type { RunResults } from "../src/results/types.ts";
import { PROJECT_ROOT } from "../src/tasks/files.ts";

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
    expect(r.stdout).toMatch(/Paper total\s+100 \/ 100/);
    expect(readResults(out).instances.map((i) => [i.taskId, i.score])).toEqual([["erc20_approve", 100]]);
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
