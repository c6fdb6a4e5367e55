import { describe, expect, test } from "vitest";
import { renderSandboxWarning, renderSummary } from "../src/reporting/summary.ts";
import { compositeMetrics } from "../src/results/metrics.ts";
import { summarize } from "../src/results/summarize.ts";
import type { InstanceResult } from "../src/results/types.ts";
import {
  DEFAULT_OPTIONS,
  optionsFromEnvironment,
  optionsFromVariables,
  outDir,
  parseRunFlags,
} from "../src/runOptions.ts";

describe("run options", () => {
  test("reads every flag in both spellings", () => {
    expect(
      parseRunFlags([
        "--model",
        "scripted:x",
        "--split=atomic",
        "--tasks",
        "a, b",
        "--seed",
        "7",
        "--epochs=2",
        "--concurrency",
        "4",
        "--out",
        "o",
        "--provider-concurrency=16",
      ]),
    ).toEqual({
      model: "scripted:x",
      split: "atomic",
      tasks: ["a", "b"],
      seed: 7,
      epochs: 2,
      concurrency: 4,
      out: "o",
      providerConcurrency: 16,
    });
  });

  test.each([
    [["--split", "both"], "--split must be atomic, composite, paper, hard or all, got 'both'"],
    [["--seed=-1"], "--seed must be an integer ≥ 0, got '-1'"],
    [["--concurrency", "0"], "--concurrency must be an integer ≥ 1, got '0'"],
    [["--provider-concurrency", "0"], "--provider-concurrency must be an integer ≥ 1, got '0'"],
    [["--modle", "x"], "unknown flag '--modle'; did you mean '--model'?"],
  ])("refuses %j", (argv, message) => {
    expect(() => parseRunFlags(argv)).toThrow(message);
  });

  test("plain Vitest runs take QUESTBENCH_* variables, then --mode <model>, then flags after --", () => {
    expect(
      optionsFromEnvironment(
        ["node", "vitest", "--project", "benchmark", "--", "--model=scripted:d", "--seed=4"],
        {},
      ).model,
    ).toBe("scripted:d");
    expect(optionsFromEnvironment(["node", "vitest"], { QUESTBENCH_MODEL: "scripted:e" }).model).toBe(
      "scripted:e",
    );
    expect(optionsFromEnvironment(["node", "vitest"], {}, "scripted:f").model).toBe("scripted:f");
    // Vitest's default mode is not a model.
    expect(optionsFromEnvironment(["node", "vitest"], {}, "test")).toEqual(DEFAULT_OPTIONS);
    expect(
      optionsFromEnvironment(["node", "vitest", "--", "--seed=5"], {
        QUESTBENCH_SEED: "3",
        QUESTBENCH_EPOCHS: "2",
      }),
    ).toMatchObject({ seed: 5, epochs: 2 });
  });

  test("every run flag has a QUESTBENCH_* variable, checked like the flag and named in its error", () => {
    expect(
      optionsFromVariables({
        QUESTBENCH_MODEL: "scripted:x",
        QUESTBENCH_SPLIT: "atomic",
        QUESTBENCH_TASKS: "a,b",
        QUESTBENCH_SEED: "7",
        QUESTBENCH_EPOCHS: "2",
        QUESTBENCH_CONCURRENCY: "3",
        QUESTBENCH_OUT: "o",
        QUESTBENCH_MAX_TOKENS: "100",
        QUESTBENCH_FRESH: "1",
        QUESTBENCH_SHARD: "1/2",
      }),
    ).toEqual({
      model: "scripted:x",
      split: "atomic",
      tasks: ["a", "b"],
      seed: 7,
      epochs: 2,
      concurrency: 3,
      out: "o",
      maxTokens: 100,
      fresh: true,
      shard: { index: 1, count: 2 },
    });
    expect(optionsFromVariables({ QUESTBENCH_FRESH: "0" }).fresh).toBe(false);
    expect(() => optionsFromVariables({ QUESTBENCH_SEED: "x" })).toThrow(
      "QUESTBENCH_SEED must be an integer ≥ 0, got 'x'",
    );
  });

  test("the default --out is a folder per model", () => {
    expect(outDir({ ...DEFAULT_OPTIONS, model: "reference" })).toBe(".questbench/results/reference");
    expect(outDir({ ...DEFAULT_OPTIONS, model: "scripted:/tmp/answers" })).toBe(
      ".questbench/results/scripted_tmp_answers",
    );
    expect(outDir({ ...DEFAULT_OPTIONS, out: "mine" })).toBe("mine");
  });
});

describe("summary", () => {
  let id = 0;
  const instance = (split: "atomic" | "composite", score: number) =>
    ({ taskId: `t${id++}`, split, score, passed: score >= 60 }) as InstanceResult;
  test("sums split totals and renders the table", () => {
    const summary = summarize([instance("atomic", 100), instance("atomic", 50), instance("composite", 70)]);
    expect(summary).toEqual({
      atomic: { score: 150, max: 200, passed: 1, count: 2, tasks: 2 },
      composite: { score: 70, max: 100, passed: 1, count: 1, tasks: 1 },
      total: { score: 220, max: 300, passed: 2, count: 3, tasks: 3 },
      hard: {
        atomic: { score: 0, max: 0, passed: 0, count: 0, tasks: 0 },
        composite: { score: 0, max: 0, passed: 0, count: 0, tasks: 0 },
        total: { score: 0, max: 0, passed: 0, count: 0, tasks: 0 },
      },
      compositeMetrics: null,
    });
    expect(renderSummary(summary, "reference")).toMatchInlineSnapshot(`
      "EVM-QuestBench — model reference
      split                    score      passed     avg
      Paper atomic         150 / 200       1 / 2    75.0
      Paper composite       70 / 100       1 / 1    70.0
      Paper subset         220 / 300       2 / 3    73.3"
    `);
  });
});

describe("sandbox warning", () => {
  const iptables = { kind: "iptables-owner", detail: "uids may reach only the guards" };
  const cgroup = { kind: "cgroup-v1", detail: "a group per child" };

  test("is silent when every barrier is in force", () => {
    expect(renderSandboxWarning({ network: iptables, memory: cgroup })).toBeUndefined();
  });

  test("names each missing barrier with its reason", () => {
    expect(
      renderSandboxWarning({
        network: { kind: "none", detail: "not root on Linux" },
        memory: { kind: "none", detail: "no memory cgroup" },
      }),
    ).toBe(
      "Sandbox without an OS barrier: network (not root on Linux); memory (no memory cgroup). Scores of untrusted models are not trustworthy here (docs/SECURITY.md).",
    );
    expect(renderSandboxWarning({ network: iptables, memory: { kind: "none", detail: "x" } })).toMatch(
      /^Sandbox without an OS barrier: memory \(x\)\./,
    );
  });
});

describe("composite metrics (paper Table 2, Table 9)", () => {
  const composite = (kOpt: number, kAct: number, kFailed: number, score: number, ethers = false) =>
    ({
      split: "composite",
      score,
      passed: score >= 60,
      composite: { kOpt, kAct, kFailed, kQuery: 0, ethersNotDefined: ethers },
    }) as unknown as InstanceResult;

  test("K_act, Eff%, 1st%, ethers% and the step overhead Δ", () => {
    const m = compositeMetrics([
      composite(2, 2, 0, 100),
      composite(2, 4, 1, 50, true),
      composite(3, 3, 1, 100),
      composite(5, 0, 0, 0),
    ]);
    expect(m).toEqual({
      count: 4,
      meanKAct: 2.25,
      meanKFailed: 0.5,
      meanKQuery: 0,
      totalRetries: 0, // no rounds recorded (see tests/earlyStop.test.ts for retries counted)
      effPct: 87.5, // (1 + 0.5 + 1 + 1) / 4: the instances K counts; no counted round decays by nothing
      firstTryPct: 25, // only the first passed without a failed round
      ethersPct: 25,
      overhead: { mean: -0.75, overOptimalPct: 25, p90: 2 }, // Δ = 0, 2, 0, −5
    });
    expect(
      compositeMetrics([composite(2, 2, 0, 100)].map((i) => ({ ...i, composite: undefined }))),
    ).toBeNull();
  });
});
