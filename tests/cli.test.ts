import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import AjvModule from "ajv";
import { describe, expect, test } from "vitest";
import type { RunResults } from "../src/results/types.ts";
import { ensureMemoryBarrier } from "../src/sandbox/memoryCgroup.ts";
import { ensureNetworkBarrier } from "../src/sandbox/networkBarrier.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";

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
    expect(stdout).toMatch(/Atomic\s+200 \/ 200\s+2 \/ 2/);
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
    await run(
      process.execPath,
      [vitestBin, "run", "--project", "benchmark", "--", "--tasks=bnb_transfer_basic", `--out=${out}`],
      {
        cwd: PROJECT_ROOT,
        env: { ...env, QUESTBENCH_MODEL: "scripted:tests/mutants/wrong_amount" },
      },
    );
    const results = readResults(out);
    expect(results.manifest.model).toBe("scripted:tests/mutants/wrong_amount");
    expect(results.instances).toHaveLength(1);
    expect(results.instances[0]!.score).toBeLessThan(60);
  });

  test("a bad flag is a one-line usage error with exit code 2", async () => {
    const failure = await run(process.execPath, [bin, "--split", "both"], { cwd: PROJECT_ROOT, env }).catch(
      (e) => e,
    );
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain("questbench: --split must be atomic, composite or all, got 'both'");
  });

  test("an unknown task id is refused before anything runs", async () => {
    const failure = await run(process.execPath, [bin, "--tasks", "no_such_task"], {
      cwd: PROJECT_ROOT,
      env,
    }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain("questbench: unknown task id(s): no_such_task");
  });
});
