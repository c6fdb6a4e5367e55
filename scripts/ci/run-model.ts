// One run job of .github/workflows/benchmark.yml: runs `questbench` for one model (and shard) with the
// workflow's inputs, passes its exit code through (0: the run finished, whatever the scores; 1: a run
// failure; 2: bad input), and records it in <out>/status.json for the merge job.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The job's environment: workflow inputs plus the matrix entry. Empty strings mean "not set". */
export type RunInputs = {
  MODEL: string;
  OUT: string;
  SEED?: string | undefined;
  EPOCHS?: string | undefined;
  SPLIT?: string | undefined;
  TASKS?: string | undefined;
  BUDGET?: string | undefined;
  SHARD?: string | undefined;
  /** `code` (the default, a module per step) or `tools` (`--protocol tools`, docs/PROTOCOLS.md). */
  PROTOCOL?: string | undefined;
};

/** What the job records next to results.json, read by merge-summary.ts. */
export type RunStatusFile = { model: string; shard: string; exitCode: number | null; signal: string | null };

/** The `questbench` arguments for `inputs` (only the options that are set). */
export function questbenchArgs(inputs: RunInputs): string[] {
  const args = ["--model", inputs.MODEL, "--out", inputs.OUT];
  const optional: [string, string | undefined][] = [
    ["--seed", inputs.SEED],
    ["--epochs", inputs.EPOCHS],
    ["--split", inputs.SPLIT],
    ["--tasks", inputs.TASKS],
    ["--budget", inputs.BUDGET],
    ["--shard", inputs.SHARD],
    ["--protocol", inputs.PROTOCOL?.trim() === "tools" ? "tools" : undefined],
  ];
  for (const [flag, value] of optional) if (value?.trim()) args.push(flag, value.trim());
  return args;
}

/**
 * Runs questbench for `inputs`, writes `<OUT>/status.json`, and returns questbench's exit code.
 * @param key the job's one API key (`API_KEY`), handed to questbench under its variable
 *   (`KEY_VARIABLE`, from the plan's matrix); absent for a model that calls no provider.
 */
export function runModel(inputs: RunInputs, key?: { variable: string; value: string }): number {
  const bin = fileURLToPath(new URL("../../bin/questbench.mjs", import.meta.url));
  const { API_KEY: _, KEY_VARIABLE: __, ...env } = process.env;
  if (key?.variable) env[key.variable] = key.value;
  const r = spawnSync(process.execPath, [bin, ...questbenchArgs(inputs)], { stdio: "inherit", env });
  mkdirSync(inputs.OUT, { recursive: true });
  const status: RunStatusFile = {
    model: inputs.MODEL,
    shard: inputs.SHARD ?? "",
    exitCode: r.status,
    signal: r.signal,
  };
  writeFileSync(path.join(inputs.OUT, "status.json"), `${JSON.stringify(status, null, 2)}\n`);
  return r.status ?? 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const e = process.env;
  if (!e.MODEL || !e.OUT) {
    console.log("::error title=benchmark run::MODEL and OUT must be set");
    process.exitCode = 2;
  } else
    process.exitCode = runModel(
      e as RunInputs,
      e.KEY_VARIABLE ? { variable: e.KEY_VARIABLE, value: e.API_KEY ?? "" } : undefined,
    );
}
