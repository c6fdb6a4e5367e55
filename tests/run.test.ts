import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, test } from "vitest";
import { feed, renderRetry, renderTotals, startProgress } from "../src/reporting/progress.ts";
import type { InstanceOutcome } from "../src/results/outcome.ts";
import { modelSlug } from "../src/runOptions.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";
import { scriptedDirOfCases } from "./helpers/cases.ts";
import {
  alive,
  descendants,
  projectCopy,
  questbench,
  readInstanceLines,
  readResults,
  tmp,
  waitFor,
} from "./helpers/cli.ts";

// The run engine end to end through the CLI: progress as instances finish, an interrupted run,
// default folders per model, the output folder as a set of results, the checks before a run, and
// watch mode re-scoring after a validator edit.

const ATOMIC = ["bnb_transfer_basic", "erc20_transfer_fixed", "erc20_approve", "bnb_transfer_max_amount"];
/** A progress line of a finished instance: mark, task id, score, then the running totals. */
const FINISHED = /^[✓✗!-] (\S+) {2}.*\[(\d+)\/(\d+) · score [\d.]+\/\d+ · ETA \S+(?: · spent \$[\d.]+)?\]$/;

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
  }, 600_000);
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
  }, 600_000);
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
    expect(results.instances.filter((i) => i.score !== 100).map((i) => [i.taskId, i.failure])).toEqual([]);
    // The finished lines stay for the rerun to resume from.
    expect(readInstanceLines(out).length).toBeGreaterThanOrEqual(results.instances.length);
  }, 600_000);
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
  }, 600_000);
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
      const file = path.join(root, "src/validators/checks/stateChecks.ts");
      const source = readFileSync(file, "utf8");
      const edited = source.replaceAll("passed: compareValues(", "passed: false && compareValues(");
      expect(edited).not.toBe(source);
      writeFileSync(file, edited);
      await waitFor("the rerun after the edit", () => (score() ?? 100) < 100);
      expect(readResults(out).instances[0]!.resumed).toBeUndefined();
    } finally {
      child.kill("SIGTERM");
    }
  }, 600_000);
});

describe("the output folder is a set of results", () => {
  test("a rerun of a subset keeps the others; another model or seed is refused in one line, even with --fresh; --fresh --tasks a reruns only a", async () => {
    const out = tmp("qb-set-");
    const three = ATOMIC.slice(0, 3);
    const first = await questbench(["--tasks", three.join(","), "--out", out]);
    expect(first.code, first.stderr.slice(-2000)).toBe(0);
    const before = readResults(out);

    const subset = await questbench(["--tasks", three[0]!, "--out", out]);
    expect(subset.code, subset.stderr.slice(-2000)).toBe(0);
    const after = readResults(out);
    expect(after.instances.map((i) => i.taskId).sort()).toEqual([...three].sort());
    expect(
      readInstanceLines(out)
        .map((i) => i.taskId)
        .sort(),
    ).toEqual([...three].sort());
    expect(after.summary.total).toEqual({ score: 300, max: 300, passed: 3, count: 3, tasks: 3 });
    // The two it did not select are the first run's results, unchanged.
    for (const id of three.slice(1))
      expect(after.instances.find((i) => i.taskId === id)).toEqual(
        before.instances.find((i) => i.taskId === id),
      );
    expect(after.manifest.selection).toMatchObject({
      split: "all",
      tasks: [three[0]],
      planned: 1,
      ran: 0,
      resumed: 1,
      kept: 2,
      paidUsd: 0,
    });
    expect(subset.stdout).toContain(
      "Kept: 2 instance(s) of earlier runs into this --out that this run did not select; the totals above cover all 3.",
    );

    // Another model, another seed: refused before anything runs, the folder untouched.
    const answers = tmp("qb-set-answers-");
    const refused = await Promise.all([
      questbench(["--model", `scripted:${answers}`, "--tasks", three[0]!, "--out", out]),
      questbench(["--seed", "2", "--tasks", three[0]!, "--out", out]),
    ]);
    expect(refused.map((r) => r.code)).toEqual([2, 2]);
    expect(refused.map((r) => r.stderr.trim().split("\n"))).toEqual([
      [
        `questbench: --out ${out} holds 3 result(s) of another run (model reference there, scripted:${answers} here): use another --out, or delete ${out} first to discard them (see questbench --help)`,
      ],
      [
        `questbench: --out ${out} holds 3 result(s) of another run (seed 1 there, 2 here): use another --out, or delete ${out} first to discard them (see questbench --help)`,
      ],
    ]);
    expect(readResults(out)).toEqual(after);

    // --fresh deletes nothing: another seed is still refused, saying that --fresh is not the way.
    const freshOther = await questbench(["--seed", "2", "--tasks", three[0]!, "--out", out, "--fresh"]);
    expect(freshOther.code).toBe(2);
    expect(freshOther.stderr.trim().split("\n")).toEqual([
      `questbench: --out ${out} holds 3 result(s) of another run (seed 1 there, 2 here): use another --out, or delete ${out} first to discard them (--fresh replaces only the selected instances of the same settings) (see questbench --help)`,
    ]);
    expect(readResults(out)).toEqual(after);

    // Same settings: --fresh --tasks a runs a again (not resumed) and keeps the other two as they were.
    const fresh = await questbench(["--tasks", three[0]!, "--out", out, "--fresh"]);
    expect(fresh.code, fresh.stderr.slice(-2000)).toBe(0);
    const rerun = readResults(out);
    expect(rerun.instances.map((i) => i.taskId).sort()).toEqual([...three].sort());
    expect(rerun.manifest.selection).toMatchObject({ planned: 1, ran: 1, resumed: 0, kept: 2 });
    expect(rerun.instances.find((i) => i.taskId === three[0])!.resumed).toBeUndefined();
    for (const id of three.slice(1))
      expect(rerun.instances.find((i) => i.taskId === id)).toEqual(
        after.instances.find((i) => i.taskId === id),
      );
    expect(readInstanceLines(out)).toHaveLength(3);
  }, 600_000);

  test("a bad --out is refused in one line, before anything else is loaded, and nothing is written", async () => {
    const file = path.join(PROJECT_ROOT, "README.md");
    const cases: [string, RegExp][] = [
      [
        file,
        /^questbench: --out .*README\.md: .*README\.md is a file, not a folder; results could not be written there/,
      ],
      [`${file}/sub`, /^questbench: --out .*README\.md\/sub: .*README\.md is a file, not a folder;/],
      // Node's recursive mkdir spun at 100 % CPU on this path, ignoring SIGTERM.
      ["/proc/nope", /^questbench: --out \/proc\/nope: \/proc\/nope cannot be created \(ENOENT\);/],
    ];
    // A place the harness may not write even as root (sysfs); as another user, a folder of root's.
    if (process.getuid?.() === 0)
      cases.push(["/sys/nope", /^questbench: --out \/sys\/nope: \/sys\/nope cannot be created \(EPERM\);/]);
    for (const [out, message] of cases) {
      const phases = path.join(tmp("qb-bad-out-"), "phases");
      const t0 = Date.now();
      const r = await questbench(["--out", out], undefined, { env: { QUESTBENCH_PHASES: phases } });
      const ms = Date.now() - t0;
      expect(r.code, out).toBe(2);
      expect(r.stdout).toBe("");
      const lines = r.stderr.trim().split("\n");
      expect(lines, out).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      // Refused right after the command line was read: no other check, no Vitest, no Anvil.
      const marks = readFileSync(phases, "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split("\t")[0]);
      expect(marks).toEqual(["process start", "cli: node + vite runner + cli loaded", "process exit"]);
      console.log(`--out ${out}: refused in ${ms} ms (process start to exit)`);
    }
    expect(existsSync("/proc/nope")).toBe(false);
  }, 600_000);
});

describe("a run stopped by SIGTERM", () => {
  test("exits (printing how fast), keeps every finished instance in results.json and says so in one line", async () => {
    const out = tmp("qb-sigterm-");
    let pid = 0;
    let sentAt = 0;
    let tree: { pid: number; cmdline: string }[] = [];
    const r = await questbench(
      ["--tasks", ATOMIC.join(","), "--concurrency", "1", "--out", out],
      (p) => {
        pid = p;
      },
      {
        onStdout: (text) => {
          if (!sentAt && text.split("\n").some((l) => FINISHED.test(l))) {
            tree = descendants(pid);
            sentAt = Date.now();
            process.kill(pid, "SIGTERM");
          }
        },
      },
    );
    const exitedAfterMs = Date.now() - sentAt;
    // Its Anvil, its Vitest worker and its sandbox children go with it. (A bound on a hang, not a
    // speed target: the exit time is printed below, and on a loaded machine it is seconds.)
    const lingering = await waitFor(
      () => !tree.some((d) => alive(d.pid)),
      "the run's processes to exit",
      30_000,
    ).then(
      () => [],
      () => tree.filter((d) => alive(d.pid)),
    );
    for (const d of lingering) process.kill(d.pid, "SIGKILL");
    expect(lingering).toEqual([]);
    expect(sentAt).toBeGreaterThan(0);
    expect(exitedAfterMs).toBeLessThan(30_000);
    // 128 + 15, as a shell reports it either way (Vitest's own handler exits with it, or the signal ends the process).
    expect(r.code === 143 || r.signal === "SIGTERM", `code ${r.code}, signal ${r.signal}`).toBe(true);
    const results = readResults(out);
    expect(results.interrupted).toBe(true);
    expect(results.instances.length).toBeGreaterThanOrEqual(1);
    expect(results.instances.filter((i) => i.score !== 100).map((i) => [i.taskId, i.failure])).toEqual([]);
    expect(readInstanceLines(out).length).toBeGreaterThanOrEqual(results.instances.length);
    const said = r.stderr.split("\n").filter((l) => l.startsWith("questbench: "));
    expect(said).toEqual([
      expect.stringMatching(
        /^questbench: interrupted \(SIGTERM\): \d+ instance\(s\) of this run finished, kept with the folder's others in .*results\.json; the same command again runs the rest$/,
      ),
    ]);
    console.log(`SIGTERM: exited ${exitedAfterMs} ms after the signal, ${results.instances.length} kept`);
  }, 600_000);
});

describe("a run killed by SIGKILL", () => {
  test("leaves no Anvil, no Anvil state folder and no sandbox folder behind", async () => {
    // A HOME and a temp folder of the run's own, so what it leaves is told apart from other runs'.
    const home = tmp("qb-kill9-home-");
    const scratch = tmp("qb-kill9-tmp-");
    chmodSync(scratch, 0o755); // the sandbox's uids traverse the temp folder as root
    let pid = 0;
    let tree: { pid: number; cmdline: string }[] = [];
    let stagedBeforeKill: string[] = [];
    await questbench(
      ["--tasks", ATOMIC.join(","), "--concurrency", "2", "--out", tmp("qb-kill9-out-")],
      (p) => {
        pid = p;
      },
      {
        env: { HOME: home, TMPDIR: scratch },
        onStdout: (text) => {
          if (tree.length === 0 && text.split("\n").some((l) => FINISHED.test(l))) {
            tree = descendants(pid);
            stagedBeforeKill = readdirSync(scratch).filter((n) => n.startsWith("questbench-sandbox-"));
            process.kill(pid, "SIGKILL");
          }
        },
      },
    );
    // The run was in full swing: Anvils up and a sandbox staged, so the test can fail.
    expect(tree.filter((d) => /\banvil\b/.test(d.cmdline)).length).toBeGreaterThan(0);
    expect(stagedBeforeKill.length).toBeGreaterThan(0);
    const left = () => ({
      processes: tree.filter((d) => alive(d.pid)).map((d) => d.cmdline.slice(0, 80)),
      sandboxFolders: readdirSync(scratch).filter((n) => n.startsWith("questbench-sandbox-")),
      anvilStateFolders: existsSync(path.join(home, ".foundry/anvil/tmp"))
        ? readdirSync(path.join(home, ".foundry/anvil/tmp"))
        : [],
    });
    const empty = { processes: [], sandboxFolders: [], anvilStateFolders: [] };
    // A bound on a hang: orphaned workers notice within a second, the kernel kills the Anvils at once.
    await waitFor(
      () => JSON.stringify(left()) === JSON.stringify(empty),
      "the run's leftovers to go",
      30_000,
    ).catch(() => {});
    const remaining = left();
    for (const d of tree) if (alive(d.pid)) process.kill(d.pid, "SIGKILL");
    expect(remaining).toEqual(empty);
  }, 600_000);
});

describe("a scripted model without an answer file", () => {
  test("is named before the run, and each such task is scored 0 as no_answer (atomic and composite)", async () => {
    const answers = tmp("qb-no-answer-");
    writeFileSync(path.join(answers, "bnb_transfer_basic.md"), "no code here");
    const composite = "composite_approve_add_liquidity";
    const out = tmp("qb-no-answer-out-");
    const model = `scripted:${answers}`;
    const r = await questbench([
      "--model",
      model,
      "--tasks",
      `bnb_transfer_basic,erc20_approve,${composite}`,
      "--out",
      out,
    ]);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr.trim().split("\n")).toEqual([
      `questbench: warning: ${model} has no answer for 2 selected task(s), scored 0 as no_answer: erc20_approve (erc20_approve.md), ${composite} (${composite}/plan.md, ${composite}/round-1.md)`,
    ]);
    const results = readResults(out);
    const failures = Object.fromEntries(
      results.instances.map((i) => [i.taskId, [i.score, i.failure?.class]]),
    );
    expect(failures).toEqual({
      bnb_transfer_basic: [0, "schema_invalid"],
      erc20_approve: [0, "no_answer"],
      [composite]: [0, "no_answer"],
    });
    // Scored: in the maxima, unlike a provider error.
    expect(results.summary.total).toMatchObject({ score: 0, max: 300, count: 3 });
    expect(r.stdout).toMatch(/^✗ erc20_approve {2}0 no_answer/m);
  }, 600_000);
});

describe("progress", () => {
  const scored = { kind: "scored", result: { score: 100 } } as InstanceOutcome;
  const resumed = { kind: "resumed", result: { score: 100 } } as InstanceOutcome;

  test("shows no ETA until 3 attempted instances finished, then the pace measured between them", () => {
    let p = startProgress(10, 0);
    // A cold start and instances resumed in no time are no pace.
    p = feed(p, resumed, 50);
    p = feed(p, resumed, 60);
    p = feed(p, scored, 60_000);
    p = feed(p, scored, 70_000);
    // A model that costs nothing (no priced usage) shows no spend.
    expect(renderTotals(p, 70_000)).toBe("4/10 · score 400/400 · ETA —");
    p = feed(p, scored, 80_000);
    // 10 s per instance between the first and the latest: 5 left.
    expect(renderTotals(p, 80_000)).toBe("5/10 · score 500/500 · ETA 50s");
    expect(renderTotals(p, 85_000)).toContain("ETA 45s");
  });

  test("counts retries and their waits, and names a retry in progress", () => {
    const retried = {
      kind: "scored",
      result: { score: 100, usage: { spentUsd: 0.01, retries: 2, retryWaitMs: 3_000 } },
    } as InstanceOutcome;
    const p = feed(startProgress(2, 0), retried, 1_000);
    expect(renderTotals(p, 1_000)).toBe(
      "1/2 · score 100/100 · ETA — · spent $0.0100 · retries 2 (waited 3s)",
    );
    expect(renderRetry("erc20_approve", { status: 429, retry: 1, maxRetries: 5, retryAfterMs: 2_000 })).toBe(
      "… erc20_approve  HTTP 429: retry 1/5 after 2s (Retry-After)",
    );
    expect(renderRetry("x", { status: null, retry: 2, maxRetries: 5, retryAfterMs: null })).toBe(
      "… x  no answer: retry 2/5",
    );
  });
});
