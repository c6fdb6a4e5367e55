import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import type { InstanceResult, RunResults } from "../../src/results/types.ts";

/** A composite fixture's rounds: K_opt, K_act, failed rounds, whether `ethers` was undefined. */
export type FixtureRounds = { kOpt: number; kAct: number; kFailed: number; ethers?: boolean; plan?: string };

/**
 * One hand-made instance for the report tests: only what the reducers and tables read is
 * meaningful. A composite gets `rounds` (budget 2·K_opt, decay min(1, K_opt / K_act)).
 */
export function fixtureInstance(
  model: string,
  taskId: string,
  epoch: number,
  score: number,
  o: {
    rounds?: FixtureRounds;
    set?: "paper" | "hard";
    category?: string;
    subcategory?: string;
    difficulty?: InstanceResult["difficulty"];
  } = {},
): InstanceResult {
  const split = o.rounds ? "composite" : "atomic";
  const r = o.rounds;
  return {
    taskId,
    taskVersion: 1,
    split,
    ...(o.set ? { set: o.set } : {}),
    category: o.category ?? split,
    subcategory: o.subcategory ?? (r ? "swap_workflows" : "erc20_operations"),
    difficulty: o.difficulty ?? "easy",
    seed: 1,
    epoch,
    instanceSeed: "0",
    templateIndex: 0,
    params: {},
    model,
    score,
    passed: score >= 60,
    checks: [],
    failure: score >= 60 ? null : { class: "checks_failed", reason: "fixture" },
    integrityViolations: [],
    prompt: [{ role: "user", content: "Task:\nfixture" }],
    response: "",
    durationMs: 1,
    timings: {},
    safety: [],
    ...(r
      ? {
          composite: {
            kOpt: r.kOpt,
            kAct: r.kAct,
            kFailed: r.kFailed,
            kQuery: 0,
            budget: r.kOpt * 2,
            base: score > 0 ? 100 : 0,
            decay: Math.min(1, r.kOpt / r.kAct),
            endedBy: "submit" as const,
            answer: null,
            plan: r.plan ?? "1. approve\n2. swap",
            // K_act counted rounds: the K_failed failed ones first, then transactions.
            rounds: Array.from({ length: r.kAct }, (_, i) => ({
              round: i + 1,
              response: "",
              kind: i < r.kFailed ? ("failed" as const) : ("transaction" as const),
              counted: true,
              feedback: "",
            })),
            ethersNotDefined: r.ethers ?? false,
          },
        }
      : {}),
  };
}

/** A results.json of `instances` under a fixture manifest (seed 1, two epochs, `--split all`). */
export function fixtureResults(
  model: string,
  instances: InstanceResult[],
  o: { summary?: RunResults["summary"]; modes?: RunResults["manifest"]["modes"] } = {},
): RunResults {
  return {
    schemaVersion: 1,
    manifest: {
      packageVersion: "0",
      gitCommit: null,
      seed: 1,
      epochs: 2,
      model,
      split: "all",
      taskFiles: {},
      anvilVersion: "fixture",
      worldId: "sha256:fixture",
      chainId: 56,
      nodeVersion: "v0",
      startedAt: "2026-01-01T00:00:00Z",
      ...(o.modes ? { modes: o.modes } : {}),
    },
    summary: o.summary ?? ({} as RunResults["summary"]),
    instances,
  };
}

/** Writes `r` as `results.json` in a new temporary folder and returns the folder. */
export function writeRun(r: RunResults): string {
  const dir = mkdtempSync(path.join(tmpdir(), "qb-fixture-"));
  writeFileSync(path.join(dir, "results.json"), JSON.stringify(r));
  return dir;
}

/** The body rows of the markdown table whose caption starts with `caption` (after its header lines). */
export function rowsOf(md: string, caption: string): string[] {
  const lines = md.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`**${caption}`));
  expect(start, caption).toBeGreaterThanOrEqual(0);
  const out: string[] = [];
  for (const l of lines.slice(start + 4)) {
    if (!l.startsWith("|")) break;
    out.push(l);
  }
  return out;
}
