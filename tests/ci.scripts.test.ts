import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { planMatrix, slugify } from "../scripts/ci/matrix.ts";
import { classifyRuns, completeModels, mergeSummary } from "../scripts/ci/merge-summary.ts";
import { questbenchArgs, runModel } from "../scripts/ci/run-model.ts";

// The logic of .github/workflows/benchmark.yml, run here: plan → run → report.
const tmp = () => mkdtempSync(path.join(tmpdir(), "qb-ci-"));
const cleanName = /^[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]$/;

describe("benchmark workflow: plan", () => {
  test("one job per model with a clean artifact name, duplicates and blanks dropped", () => {
    const { include } = planMatrix(
      " claude-sonnet, openrouter/qwen/qwen3-coder ,,reference,claude-sonnet\n",
      "1",
    );
    expect(include.map((e) => [e.model, e.shard, e.artifact, e.cacheKey])).toEqual([
      ["claude-sonnet", "", "results-claude-sonnet", "claude-sonnet"],
      [
        "openrouter/qwen/qwen3-coder",
        "",
        "results-openrouter-qwen-qwen3-coder",
        "openrouter-qwen-qwen3-coder",
      ],
      ["reference", "", "results-reference", "reference"],
    ]);
    expect(slugify("openai-compatible:http://127.0.0.1:8000/v1#Qwen/Qwen3-Coder_")).toBe(
      "openai-compatible-http-127.0.0.1-8000-v1-Qwen-Qwen3-Coder",
    );
    for (const e of include) expect(e.artifact).toMatch(cleanName);
  });

  test("shards: n jobs per model, each with its --shard i/n and its own artifact", () => {
    const { include } = planMatrix("gpt,deepseek", "3");
    expect(include).toHaveLength(6);
    expect(include.filter((e) => e.model === "gpt").map((e) => [e.shard, e.artifact])).toEqual([
      ["1/3", "results-gpt-shard-1-of-3"],
      ["2/3", "results-gpt-shard-2-of-3"],
      ["3/3", "results-gpt-shard-3-of-3"],
    ]);
    // Each shard restores its own cache first (same instances), then any of the model's.
    expect(include.filter((e) => e.model === "gpt").map((e) => `${e.cacheKey}/${e.cacheShard}`)).toEqual([
      "gpt/1-of-3",
      "gpt/2-of-3",
      "gpt/3-of-3",
    ]);
  });

  test("refuses no model, a bad shard count, and two models whose artifacts would collide", () => {
    expect(() => planMatrix(" , ", "1")).toThrow("no model given");
    expect(() => planMatrix("gpt", "0")).toThrow("shards must be an integer from 1 to 32, got '0'");
    expect(() => planMatrix("gpt", "two")).toThrow("shards must be an integer");
    const anyName = { keyVariable: () => "" };
    expect(() => planMatrix("a/b,a:b", "1", anyName)).toThrow(
      "models 'a/b' and 'a:b' would share the artifact name results-a-b",
    );
    expect(() => planMatrix("gpt", "2", { budget: "ten" })).toThrow(
      "budget must be a number of USD ≥ 0 per model, got 'ten'",
    );
  });

  test("checks each model name against the registry, naming the closest one", () => {
    expect(() => planMatrix("reference,claude-sonet", "4")).toThrow(
      /^model 'claude-sonet': unknown model 'claude-sonet'; did you mean 'claude-sonnet'\?/,
    );
  });

  test("each job gets the one key variable its model needs and its share of the model's budget", () => {
    const { include } = planMatrix("claude-sonnet,openrouter/qwen/qwen3-coder,reference", "3", {
      budget: "10",
    });
    expect(new Set(include.map((e) => `${e.model} ${e.keyVariable} ${e.budget}`))).toEqual(
      new Set([
        "claude-sonnet ANTHROPIC_API_KEY 3.3333",
        "openrouter/qwen/qwen3-coder OPENROUTER_API_KEY 3.3333",
        "reference  ",
      ]),
    );
    expect(planMatrix("gpt", "1").include[0]).toMatchObject({ keyVariable: "OPENAI_API_KEY", budget: "" });
  });
});

describe("benchmark workflow: run and report", () => {
  test("passes only the inputs that are set", () => {
    expect(questbenchArgs({ MODEL: "gpt", OUT: "o", SEED: "1", BUDGET: "", SHARD: "", TASKS: " " })).toEqual([
      "--model",
      "gpt",
      "--out",
      "o",
      "--seed",
      "1",
    ]);
    expect(questbenchArgs({ MODEL: "gpt", OUT: "o", PROTOCOL: "tools" })).toEqual([
      "--model",
      "gpt",
      "--out",
      "o",
      "--protocol",
      "tools",
    ]);
    expect(questbenchArgs({ MODEL: "gpt", OUT: "o", PROTOCOL: "code" })).toEqual([
      "--model",
      "gpt",
      "--out",
      "o",
    ]);
    expect(questbenchArgs({ MODEL: "gpt", OUT: "o", SHARD: "2/4", BUDGET: "5", SPLIT: "atomic" })).toEqual([
      "--model",
      "gpt",
      "--out",
      "o",
      "--split",
      "atomic",
      "--budget",
      "5",
      "--shard",
      "2/4",
    ]);
  });

  test("a run job's exit code is questbench's: 0 for a finished run, 1 for a retired model, 2 for bad input", async () => {
    const dir = tmp();
    const matrix = planMatrix("reference,deepseek-v3.2,bogus-split,never-ran", "1", {
      keyVariable: () => "",
    });
    const [ok, retired, bad, missing] = matrix.include;
    const out = (e: typeof ok) => path.join(dir, e!.artifact);
    const env = { QUESTBENCH_OPTIONS: "", QUESTBENCH_MODEL: "" };
    Object.assign(process.env, env);
    expect(runModel({ MODEL: ok!.model, OUT: out(ok), TASKS: "bnb_transfer_basic", SEED: "3" })).toBe(0);
    expect(runModel({ MODEL: retired!.model, OUT: out(retired) })).toBe(1);
    expect(runModel({ MODEL: "reference", OUT: out(bad), SPLIT: "bogus" })).toBe(2);
    expect(JSON.parse(readFileSync(path.join(out(bad), "status.json"), "utf8"))).toMatchObject({
      exitCode: 2,
    });
    // A job that uploaded results but exited non-zero is failed, even with a results.json.
    cpSync(path.join(out(ok), "results.json"), path.join(out(retired), "results.json"));
    const outcomes = classifyRuns(matrix, dir);
    expect(outcomes.map((o) => [o.model, o.state, o.detail])).toEqual([
      ["reference", "ok", ""],
      ["deepseek-v3.2", "failed", "questbench exited with 1"],
      ["bogus-split", "failed", "questbench exited with 2"],
      ["never-ran", "missing", "no artifact: the job was cancelled or failed before uploading"],
    ]);
    expect(completeModels(outcomes)).toEqual(["reference"]);
    expect(missing!.artifact).toBe("results-never-ran");

    // The report merges only complete models and names the others in the step summary.
    const report = path.join(dir, "report");
    const summaryFile = path.join(dir, "step-summary.md");
    writeFileSync(summaryFile, "");
    expect(mergeSummary({ matrix, dir, out: report, summaryFile })).toBe(0);
    const summary = readFileSync(summaryFile, "utf8");
    expect(summary).toContain(
      "**Failed:** deepseek-v3.2: questbench exited with 1; bogus-split: questbench exited with 2",
    );
    expect(summary).toContain("**Missing:** never-ran");
    expect(summary).toContain(readFileSync(path.join(report, "leaderboard.md"), "utf8").trim());
    expect(readFileSync(path.join(report, "leaderboard.md"), "utf8")).toContain("reference");
    expect(readFileSync(path.join(report, "leaderboard.md"), "utf8")).not.toContain("deepseek-v3.2");
  }, 600_000);

  test("a shard that never reported keeps its model out of the leaderboard", () => {
    const dir = tmp();
    const matrix = planMatrix("gpt", "2");
    expect(matrix.include.map((e) => e.keyVariable)).toEqual(["OPENAI_API_KEY", "OPENAI_API_KEY"]);
    const first = path.join(dir, matrix.include[0]!.artifact);
    mkdirSync(first);
    writeFileSync(
      path.join(first, "status.json"),
      JSON.stringify({ model: "gpt", shard: "1/2", exitCode: 0 }),
    );
    writeFileSync(path.join(first, "results.json"), "{}");
    const outcomes = classifyRuns(matrix, dir);
    expect(outcomes.map((o) => o.state)).toEqual(["ok", "missing"]);
    expect(completeModels(outcomes)).toEqual([]);
    expect(mergeSummary({ matrix, dir, out: path.join(dir, "report") })).toBe(1);
    expect(readFileSync(path.join(dir, "report", "summary.md"), "utf8")).toContain(
      "**Missing:** gpt (shard 2/2)",
    );
  });
});
