import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import AjvModule from "ajv";
import { describe, expect, test } from "vitest";
import type { RunResults } from "../src/results/types.ts";
import { moduleCachePath } from "../src/run/vitest.ts";
import { DEFAULT_OPTIONS, DEFAULT_SPLIT } from "../src/runOptions.ts";
import { ensureMemoryBarrier } from "../src/sandbox/memoryCgroup.ts";
import { ensureNetworkBarrier } from "../src/sandbox/networkBarrier.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";
import { scriptedDirOfCases } from "./helpers/cases.ts";
import { projectCopy } from "./helpers/cli.ts";
import { loadedModules } from "./helpers/loadedModules.ts";
import { startFakeProvider } from "./providers/fakeServer.ts";

const run = promisify(execFile);
const Ajv = AjvModule as unknown as typeof AjvModule.default;
const bin = path.join(PROJECT_ROOT, "bin/questbench.mjs");
const vitestBin = path.join(PROJECT_ROOT, "node_modules/vitest/vitest.mjs");
const readResults = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8")) as RunResults;
const env = { ...process.env, QUESTBENCH_OPTIONS: "", QUESTBENCH_MODEL: "" };

describe("npx questbench", () => {
  test("runs the selected tasks with the reference model and writes results.json", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "qb-cli-"));
    const { stdout } = await run(
      process.execPath,
      [bin, "--tasks", "bnb_transfer_basic,erc20_transfer_fixed", "--seed", "2", "--out", out],
      { cwd: PROJECT_ROOT, env },
    );
    expect(stdout).toMatch(/Paper atomic\s+200 \/ 200\s+2 \/ 2/);
    const results = readResults(out);
    expect(results.schemaVersion).toBe(1);
    expect(results.manifest).toMatchObject({ model: "reference", seed: 2, chainId: 56 });
    expect(results.manifest.worldId).toMatch(/^sha256:/);
    expect(results.manifest.anvilVersion).toMatch(/anvil/i);
    // The barriers the run's sandbox had are those this machine gives (docs/SECURITY.md).
    expect(results.manifest.sandbox).toEqual({
      network: ensureNetworkBarrier(),
      memory: ensureMemoryBarrier(),
    });
    expect(Object.keys(results.manifest.taskFiles).length).toBeGreaterThanOrEqual(2);
    expect(results.summary.atomic).toEqual({ score: 200, max: 200, passed: 2, count: 2, tasks: 2 });
    expect(results.instances.map((i) => i.taskId)).toEqual(["bnb_transfer_basic", "erc20_transfer_fixed"]);
    for (const i of results.instances) {
      expect(i).toMatchObject({
        split: "atomic",
        seed: 2,
        score: 100,
        passed: true,
        failure: null,
        integrityViolations: [],
      });
      expect(i.checks.every((c) => c.passed)).toBe(true);
      expect(i.transaction?.status).toBe("success");
      expect(i.response).toContain("executeSkill");
      expect(i.prompt[1]!.content).toContain("deployedContracts");
    }
    const schema = JSON.parse(
      readFileSync(path.join(PROJECT_ROOT, "src/results/results.schema.json"), "utf8"),
    );
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(results), JSON.stringify(validate.errors)).toBe(true);
    const jsonl = readFileSync(path.join(out, "instances.jsonl"), "utf8").trim().split("\n");
    expect(jsonl).toHaveLength(2);
  });

  test("plain Vitest takes benchmark flags after -- and the model from QUESTBENCH_MODEL", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "qb-vitest-"));
    const weak = `scripted:${scriptedDirOfCases("wrong_amount")}`;
    // The weak answer scores below the pass mark, so its test fails (exit code 1, tests/run.test.ts).
    const failed = await run(
      process.execPath,
      [vitestBin, "run", "--project", "benchmark", "--", "--tasks=bnb_transfer_basic", `--out=${out}`],
      {
        cwd: PROJECT_ROOT,
        env: { ...env, QUESTBENCH_MODEL: weak },
      },
    ).catch((e) => e);
    expect(failed.code).toBe(1);
    const results = readResults(out);
    expect(results.manifest.model).toBe(weak);
    expect(results.instances).toHaveLength(1);
    expect(results.instances[0]!.score).toBeLessThan(60);
  });

  test("plain Vitest leaves the benchmark's module cache alone, even beside a stale lockfile stamp", async () => {
    // Vitest's default cache folder for a config without a path of its own; a stamp there from an
    // earlier lockfile made every plain Vitest start delete the benchmark's cache (ENOENT in runs
    // reading it). The root config now shares the benchmark's folder, keyed by the lockfile.
    const defaultRoot = path.join(PROJECT_ROOT, "node_modules/.experimental-vitest-cache");
    mkdirSync(defaultRoot, { recursive: true });
    writeFileSync(path.join(defaultRoot, "_metadata.json"), JSON.stringify({ lockfileHash: "stale000" }));
    const marker = path.join(moduleCachePath(), "marker-kept");
    mkdirSync(path.dirname(marker), { recursive: true });
    writeFileSync(marker, "");
    const out = mkdtempSync(path.join(tmpdir(), "qb-vitest-"));
    await run(
      process.execPath,
      [vitestBin, "run", "--project", "benchmark", "--", "--tasks=bnb_transfer_basic", `--out=${out}`],
      { cwd: PROJECT_ROOT, env: { ...env, QUESTBENCH_MODEL: "reference" } },
    );
    expect(readResults(out).instances[0]!.score).toBe(100);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
  });

  test("a bad flag is a one-line usage error with exit code 2", async () => {
    const failure = await run(process.execPath, [bin, "--split", "both"], { cwd: PROJECT_ROOT, env }).catch(
      (e) => e,
    );
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain(
      "questbench: --split must be atomic, composite, paper, hard or all, got 'both'",
    );
  });

  test("an unknown task id is refused before anything runs", async () => {
    const failure = await run(process.execPath, [bin, "--tasks", "no_such_task"], {
      cwd: PROJECT_ROOT,
      env,
    }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain("questbench: unknown task id(s): no_such_task");
  });

  /** Runs the CLI; resolves with its exit code and output (never rejects on a non-zero exit). */
  const questbench = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
    run(process.execPath, [bin, ...args], { cwd: PROJECT_ROOT, env: { ...env, ...extraEnv } }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
    );
  const lines = (s: string) => s.split("\n").filter((l) => l && !l.startsWith("npm warn"));

  test("usage errors are one line each, with the closest name and a pointer to --help (exit code 2)", async () => {
    const cases: [string[], string][] = [
      [
        ["--splt", "atomic"],
        "questbench: unknown flag '--splt'; did you mean '--split'? (see questbench --help)",
      ],
      [
        ["--split", "atomc"],
        "questbench: --split must be atomic, composite, paper, hard or all, got 'atomc'; did you mean 'atomic'? (see questbench --help)",
      ],
      [
        ["--tasks", "bnb_transfer_basc"],
        "questbench: unknown task id(s): bnb_transfer_basc; did you mean 'bnb_transfer_basic'? (see questbench --help)",
      ],
      [
        ["--cache", "replya"],
        "questbench: --cache must be on, off or replay, got 'replya'; did you mean 'replay'? (see questbench --help)",
      ],
      [["--model"], "questbench: --model needs a value (see questbench --help)"],
      [
        ["reprot", "x"],
        "questbench: unexpected argument 'reprot'; did you mean 'report'? (see questbench --help)",
      ],
      [
        ["report", "--outt", "x"],
        "questbench: unknown flag '--outt'; did you mean '--out'? (see questbench --help)",
      ],
    ];
    const results = await Promise.all(cases.map(([args]) => questbench(args)));
    results.forEach((r, i) => {
      expect(r.code, cases[i]![0].join(" ")).toBe(2);
      expect(lines(r.stderr), cases[i]![0].join(" ")).toEqual([cases[i]![1]]);
    });
    // An unknown model is a usage error too: the closest name, then every alias.
    const model = await questbench(["--model", "claude-sonet"]);
    expect(model.code).toBe(2);
    expect(lines(model.stderr)).toHaveLength(1);
    expect(model.stderr).toMatch(
      /^questbench: unknown model 'claude-sonet'; did you mean 'claude-sonnet'\?; aliases: .*claude-sonnet, sonnet, gpt, gpt-mini, gemini-pro, gemini-flash/,
    );
  });

  test("--version prints package.json's version", async () => {
    const r = await questbench(["--version"]);
    const { version } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
  });

  test("--help and --version load no module of the harness and no Vite: plain JavaScript answers them", async () => {
    // How fast they are is `npm run bench -- --sections cli`'s figure; what they load is this test's.
    for (const args of [["--help"], ["--version"], ["--model", "reference", "--help"]]) {
      const r = await loadedModules(bin, args);
      expect(r.code, r.stderr).toBe(0);
      const own = r.files
        .filter((f) => !f.includes("/node_modules/"))
        .map((f) => path.relative(PROJECT_ROOT, f));
      expect(own.sort(), args.join(" ")).toEqual(
        args.includes("--help")
          ? ["bin/questbench.mjs", "src/cliHelp.mjs", "src/sandbox/unlinkRuntimeBin.mjs"]
          : ["bin/questbench.mjs", "src/sandbox/unlinkRuntimeBin.mjs"],
      );
      expect(r.files.filter((f) => f.includes("/node_modules/vite/"))).toEqual([]);
    }
    // The text is the defaults' (src/runOptions.ts), whichever side prints it.
    const text = (await questbench(["--help"])).stdout;
    expect(text).toContain(
      `(default: --model ${DEFAULT_OPTIONS.model} --split ${DEFAULT_SPLIT} --seed 1 --concurrency 2`,
    );
    expect(text).toMatch(/^Usage:\n {2}questbench \[--model M\]/);
  });

  test("a usage error of a built checkout loads the compiled CLI from dist/ and no Vite; an edit to src/ since the build falls back to the TypeScript", async () => {
    const root = projectCopy();
    for (const entry of ["bin", "tsconfig.build.json"])
      cpSync(path.join(PROJECT_ROOT, entry), path.join(root, entry), { recursive: true });
    const built = await promisify(execFile)(process.execPath, [
      path.join(PROJECT_ROOT, "scripts/build.mjs"),
      "--root",
      root,
    ]);
    expect(built.stderr).toMatch(/build: \d+ files in dist\//);
    const usage = async () => {
      const r = await loadedModules(path.join(root, "bin/questbench.mjs"), ["--split", "bogus"], {
        cwd: root,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("questbench: --split must be");
      return r.files;
    };
    const fromDist = await usage();
    expect(fromDist).toContain(path.join(root, "dist/cli.js"));
    expect(fromDist.filter((f) => /\/node_modules\/(vite|vitest|viem|ethers)\//.test(f))).toEqual([]);
    // An edit after the build: the build is stale, so the CLI runs the TypeScript through Vite.
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(root, "src/errors.ts"), later, later);
    const fromSource = await usage();
    expect(fromSource).not.toContain(path.join(root, "dist/cli.js"));
    expect(fromSource.some((f) => f.includes("/node_modules/vite/"))).toBe(true);
  });

  test("a retired model and a missing scripted:DIR are refused in one line before any chain starts", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "qb-cli-"));
    const retired = await questbench(["--model", "deepseek-v3.2", "--out", out], { DEEPSEEK_API_KEY: "k" });
    expect(retired.code).toBe(1);
    expect(lines(retired.stderr)).toEqual([
      "questbench: model 'deepseek-v3.2' (deepseek-chat on deepseek) was retired on 2026-07-24; use deepseek-v4-flash (alias deepseek) instead (src/models/registry.json)",
    ]);
    const scripted = await questbench(["--model", "scripted:/no/such/dir", "--out", out]);
    expect(scripted.code).toBe(1);
    expect(lines(scripted.stderr)).toEqual([
      "questbench: scripted:/no/such/dir: /no/such/dir does not exist; scripted:DIR takes a directory of response files (DIR/<task-id>.md, DIR/<task-id>/plan.md and round-N.md)",
    ]);
    expect(readdirSync(out)).toEqual([]);
  });

  test("a deprecated model runs after a one-line warning naming its retirement date and replacement", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "qb-cli-"));
    // Replaying an empty cache calls no provider: the run starts, and every call is a cache miss.
    const r = await questbench([
      "--model",
      "claude-sonnet-4.5",
      "--tasks",
      "bnb_transfer_basic",
      "--cache",
      "replay",
      "--cache-dir",
      mkdtempSync(path.join(tmpdir(), "qb-cache-")),
      "--out",
      out,
    ]);
    expect(lines(r.stderr)[0]).toBe(
      "questbench: warning: model 'claude-sonnet-4.5' (claude-sonnet-4-5 on anthropic) is deprecated and retires on 2026-11-30; use claude-sonnet-5 (alias claude-sonnet) instead",
    );
    expect(readResults(out).instances.map((i) => i.failure?.code)).toEqual(["cache_miss"]);
  });

  test("3 identical 404s stop a run: no fourth request, one line saying so, every instance kept for a rerun", async () => {
    const server = await startFakeProvider(() => ({
      kind: "status",
      status: 404,
      body: { type: "error", error: { type: "not_found_error", message: "model: claude-sonnet-5" } },
    }));
    try {
      const out = mkdtempSync(path.join(tmpdir(), "qb-cli-"));
      const ids = [
        "bnb_transfer_basic",
        "erc20_transfer_fixed",
        "erc20_approve",
        "wbnb_deposit",
        "query_gas_price",
      ];
      const r = await questbench(
        [
          "--model",
          "claude-sonnet",
          "--tasks",
          ids.join(","),
          "--concurrency",
          "1",
          "--cache",
          "off",
          "--out",
          out,
        ],
        { ANTHROPIC_API_KEY: "sk-fake", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
      );
      expect(r.code).toBe(1);
      expect(server.requests).toHaveLength(3);
      const stopLines = lines(r.stderr).filter((l) => l.startsWith("questbench: "));
      expect(stopLines).toHaveLength(1);
      expect(stopLines[0]).toMatch(
        /^questbench: run stopped after 3 identical answers \(claude-sonnet-5 at .*: HTTP 404: .*not_found_error.*\); no further instance is started/,
      );
      // Provider answers print as the lines they are: no stack frames, no serialized SDK error.
      expect(r.stderr).not.toMatch(/\.[mt]s:\d+:\d+/);
      expect(r.stderr).not.toContain("Serialized Error");
      const results = readResults(out);
      expect(results.instances).toHaveLength(ids.length);
      expect(results.instances.map((i) => i.failure?.code).sort()).toEqual([
        "bad_request",
        "bad_request",
        "run_stopped",
        "run_stopped",
        "run_stopped",
      ]);
      expect(results.instances.every((i) => i.failure?.class === "provider_error")).toBe(true);
    } finally {
      await server.close();
    }
  });
});
