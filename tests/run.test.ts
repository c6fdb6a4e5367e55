import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, test } from "vitest";
import { modelSlug } from "../src/runOptions.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";
import { scriptedDirOfCases } from "./helpers/cases.ts";
import { projectCopy, questbench, readInstanceLines, readResults, tmp } from "./helpers/cli.ts";

// The run engine end to end through the CLI: progress as instances finish, an interrupted run,
// default folders per model, and watch mode re-scoring after a validator edit.

const ATOMIC = ["bnb_transfer_basic", "erc20_transfer_fixed", "erc20_approve", "bnb_transfer_max_amount"];
/** A progress line of a finished instance: mark, task id, score, then the running totals. */
const FINISHED = /^[✓✗!-] (\S+) {2}.*\[(\d+)\/(\d+) · score [\d.]+\/\d+ · ETA \S+ · spent \$[\d.]+\]$/;

describe("progress without a terminal", () => {
  test("prints one plain line per instance as it finishes (before the run ends), with no ANSI codes", async () => {
    const out = tmp("qb-progress-");
    const seenBeforeEnd: boolean[] = [];
    const r = await questbench(
      ["--tasks", ATOMIC.slice(0, 3).join(","), "--concurrency", "1", "--out", out],
      undefined,
      {
        onStdout: (text) => {
          for (const line of text.split("\n"))
            if (FINISHED.test(line)) seenBeforeEnd.push(!existsSync(path.join(out, "results.json")));
        },
      },
    );
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    const lines = r.stdout.split("\n").filter((l) => FINISHED.test(l));
    expect(lines.map((l) => FINISHED.exec(l)![2])).toEqual(["1", "2", "3"]);
    expect(lines.map((l) => FINISHED.exec(l)![1]).sort()).toEqual(ATOMIC.slice(0, 3).sort());
    expect(lines.at(-1)).toContain("3/3 · score 300/300");
    // Each line was on stdout while the run was still going (results.json comes at its end).
    expect(seenBeforeEnd).toEqual([true, true, true]);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes.
    expect(r.stdout).not.toMatch(/\x1b\[/);
  }, 240_000);
});

describe("an instance below the pass mark", () => {
  test("fails its test under plain Vitest with its score and failed checks; the CLI shows ✗ and exits 0; both keep the result", async () => {
    const model = `scripted:${scriptedDirOfCases("wrong_amount")}`;
    const vitestOut = tmp("qb-below-vitest-");
    const plain = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          path.join(PROJECT_ROOT, "node_modules/vitest/vitest.mjs"),
          "run",
          "--project",
          "benchmark",
          "--mode",
          model,
          "--",
          "--tasks=bnb_transfer_basic",
          `--out=${vitestOut}`,
        ],
        { cwd: PROJECT_ROOT, env: { ...process.env, QUESTBENCH_MODEL: "", CI: "1" } },
      );
      let output = "";
      child.stdout.on("data", (d) => {
        output += d;
      });
      child.stderr.on("data", (d) => {
        output += d;
      });
      child.on("close", (code) => resolve({ code, output: stripVTControlCharacters(output) }));
    });
    const scored = readResults(vitestOut).instances[0]!;
    expect(scored.score).toBeLessThan(60);
    const failed = scored.checks.filter((c) => !c.passed);
    expect(failed.length).toBeGreaterThan(0);
    // Vitest's own summary counts the instance as a failed test, and says why.
    expect(plain.code, plain.output.slice(-3000)).toBe(1);
    expect(plain.output).toMatch(/Tests\s+1 failed/);
    expect(plain.output).toContain(`score ${scored.score} — below the pass mark (60)`);
    for (const c of failed) expect(plain.output).toContain(`${c.name} (weight ${c.weight}: ${c.detail})`);

    const cliOut = tmp("qb-below-cli-");
    const cli = await questbench(["--tasks", "bnb_transfer_basic", "--model", model, "--out", cliOut]);
    expect(cli.code, cli.stderr.slice(-2000)).toBe(0);
    expect(cli.stdout).toMatch(new RegExp(`^✗ bnb_transfer_basic  ${scored.score}\\b`, "m"));
    expect(readResults(cliOut).instances.map((i) => i.score)).toEqual([scored.score]);
  }, 240_000);
});

describe("an interrupted run", () => {
  test("Ctrl-C (SIGINT to the process group) after an instance finished: results.json says interrupted and keeps it", async () => {
    const out = tmp("qb-interrupt-");
    let pid = 0;
    let sent = false;
    const r = await questbench(
      ["--tasks", ATOMIC.join(","), "--concurrency", "1", "--out", out],
      (p) => {
        pid = p;
      },
      {
        detached: true,
        onStdout: (text) => {
          if (!sent && text.split("\n").some((l) => FINISHED.test(l))) {
            sent = true;
            process.kill(-pid, "SIGINT");
          }
        },
      },
    );
    expect(sent).toBe(true);
    expect(r.code).not.toBe(0);
    const results = readResults(out);
    expect(results.interrupted).toBe(true);
    expect(results.instances.length).toBeGreaterThanOrEqual(1);
    expect(results.instances.length).toBeLessThan(ATOMIC.length);
    expect(results.instances.every((i) => i.score === 100)).toBe(true);
    // The finished lines stay for the rerun to resume from.
    expect(readInstanceLines(out).length).toBeGreaterThanOrEqual(results.instances.length);
  }, 240_000);
});

describe("default --out", () => {
  test("runs of two models without --out land in two folders, neither overwriting the other", async () => {
    const cwd = tmp("qb-default-out-");
    const answers = path.join(cwd, "answers");
    mkdirSync(answers);
    writeFileSync(path.join(answers, "erc20_approve.md"), "no code here");
    const reference = await questbench(["--tasks", "erc20_approve"], undefined, { cwd });
    expect(reference.code, reference.stderr.slice(-2000)).toBe(0);
    const scripted = await questbench(
      ["--tasks", "erc20_approve", "--model", `scripted:${answers}`],
      undefined,
      {
        cwd,
      },
    );
    expect(scripted.stderr).not.toMatch(/Error/);
    const a = readResults(path.join(cwd, ".questbench/results/reference"));
    const b = readResults(path.join(cwd, ".questbench/results", modelSlug(`scripted:${answers}`)));
    expect(a.manifest.model).toBe("reference");
    expect(a.instances[0]!.score).toBe(100);
    expect(b.manifest.model).toBe(`scripted:${answers}`);
    expect(b.instances[0]!.score).toBe(0);
  }, 240_000);
});

describe("watch mode", () => {
  test("an edited validator re-scores the instance it affects (no resumed 100)", async () => {
    const root = projectCopy();
    const out = path.join(root, "out");
    const child = spawn(
      process.execPath,
      [
        path.join(root, "node_modules/vitest/vitest.mjs"),
        "--watch",
        "--project",
        "benchmark",
        "--mode",
        "reference",
      ],
      {
        cwd: root,
        env: { ...process.env, QUESTBENCH_TASKS: "erc20_approve", QUESTBENCH_OUT: out, CI: "" },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    const score = () =>
      existsSync(path.join(out, "results.json")) ? readResults(out).instances[0]?.score : undefined;
    const waitFor = async (what: string, ok: () => boolean) => {
      for (let t = 0; t < 240; t++) {
        if (ok()) return;
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error(`timed out waiting for ${what}:\n${output.slice(-3000)}`);
    };
    try {
      await waitFor("the first run", () => score() === 100);
      // The edit of the issue: a state check that can no longer pass.
      const file = path.join(root, "src/validators/stateChecks.ts");
      const source = readFileSync(file, "utf8");
      const edited = source.replaceAll("passed: compareValues(", "passed: false && compareValues(");
      expect(edited).not.toBe(source);
      writeFileSync(file, edited);
      await waitFor("the rerun after the edit", () => (score() ?? 100) < 100);
      expect(readResults(out).instances[0]!.resumed).toBeUndefined();
    } finally {
      child.kill("SIGTERM");
    }
  }, 300_000);
});
