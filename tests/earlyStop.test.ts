import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { renderCompositeMetrics } from "../src/reporting/summary.ts";
import { createEarlyStop, isSchemaFailure } from "../src/results/earlyStop.ts";
import { compositeMetrics, retriesOf } from "../src/results/metrics.ts";
import type { InstanceResult } from "../src/results/types.ts";
import { parseRunFlags } from "../src/runOptions.ts";
import { questbench, readResults, tmp } from "./helpers/cli.ts";

type Finished = Pick<InstanceResult, "failure" | "composite">;
const failed = (cls: string): Finished => ({ failure: { class: cls, reason: "x" } as never });
const ok: Finished = { failure: null };
const roundsOf = (...kinds: ("failed" | "transaction" | "submit_only")[]) =>
  kinds.map((kind, i) => ({
    round: i + 1,
    response: "",
    kind,
    counted: kind !== "submit_only",
    feedback: "",
    ...(kind === "failed" ? { failure: { class: "schema_invalid", reason: "no code block" } } : {}),
  }));

describe("--early-stop N: schema failures in a row end the run (paper §5.3)", () => {
  test("a schema failure is one on the runner's interface: an atomic schema_invalid, or a composite whose every counted round was", () => {
    expect(isSchemaFailure(failed("schema_invalid"))).toBe(true);
    expect(isSchemaFailure(failed("checks_failed"))).toBe(false);
    expect(isSchemaFailure(failed("runtime_error"))).toBe(false);
    const composite = (rounds: ReturnType<typeof roundsOf>): Finished =>
      ({ failure: { class: "checks_failed", reason: "x" }, composite: { rounds } }) as never;
    expect(isSchemaFailure(composite(roundsOf("failed", "failed", "submit_only")))).toBe(true);
    expect(isSchemaFailure(composite(roundsOf("failed", "transaction")))).toBe(false);
    expect(isSchemaFailure(composite(roundsOf()))).toBe(false);
  });

  test("stops after N in a row; any other answer resets the streak; provider errors neither count nor reset", () => {
    const stop = createEarlyStop(3);
    for (const i of [failed("schema_invalid"), failed("schema_invalid"), ok, failed("schema_invalid")])
      stop.record(i);
    expect(stop.stopped()).toBe(false);
    stop.record(failed("schema_invalid"));
    stop.record(failed("provider_error"));
    expect(stop.stopped()).toBe(false);
    stop.record(failed("schema_invalid"));
    expect(stop.stopped()).toBe(true);
    // 0: never.
    const never = createEarlyStop(0);
    for (let k = 0; k < 10; k++) never.record(failed("schema_invalid"));
    expect(never.stopped()).toBe(false);
  });

  test("parses as a positive count; 0 or a word is a one-line error", () => {
    expect(parseRunFlags(["--early-stop", "3"]).earlyStop).toBe(3);
    expect(parseRunFlags([]).earlyStop).toBeUndefined();
    expect(() => parseRunFlags(["--early-stop", "0"])).toThrow(/--early-stop/);
    expect(() => parseRunFlags(["--early-stop", "often"])).toThrow(/--early-stop/);
  });

  test("a run whose model answers without code stops after 2 and leaves the rest not started, out of every score", async () => {
    const tasks = ["bnb_transfer_basic", "erc20_approve", "erc20_transfer_fixed", "bnb_transfer_max_amount"];
    const dir = tmp("qb-early-stop-model-");
    for (const id of tasks) writeFileSync(path.join(dir, `${id}.md`), "I would rather describe it in words.");
    const out = tmp("qb-early-stop-");
    const r = await questbench([
      "--model",
      `scripted:${dir}`,
      "--tasks",
      tasks.join(","),
      "--concurrency",
      "1",
      "--early-stop",
      "2",
      "--out",
      out,
    ]);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    const results = readResults(out);
    expect(results.instances.map((i) => i.failure?.class)).toEqual(["schema_invalid", "schema_invalid"]);
    expect(results.notStarted?.map((n) => n.reason)).toEqual(["early_stop", "early_stop"]);
    // Left out of the maxima: two instances ran, 200 points at stake.
    expect(results.summary.total).toMatchObject({ score: 0, max: 200, count: 2, tasks: 2 });
    expect(r.stdout).toContain(
      "Not started (--early-stop: schema failures in a row ended the run, paper §5.3): 2 instance(s)",
    );
  }, 600_000);
});

describe("total retries (paper §5.3)", () => {
  test("counts the counted rounds that follow a failed one", () => {
    expect(retriesOf(roundsOf("transaction", "transaction"))).toBe(0);
    // fail, retry (fails), retry (ok), next step: 2 retries.
    expect(retriesOf(roundsOf("failed", "failed", "transaction", "transaction"))).toBe(2);
    // A last failed round is not retried; a submit-only reply is not a round of K_act.
    expect(retriesOf(roundsOf("transaction", "failed", "submit_only"))).toBe(0);
  });

  test("are summed over a run's composite instances and printed at its end", () => {
    const composite = (rounds: ReturnType<typeof roundsOf>) =>
      ({
        split: "composite",
        score: 0,
        passed: false,
        composite: { kOpt: 2, kAct: rounds.length, kFailed: 0, kQuery: 0, rounds, ethersNotDefined: false },
      }) as unknown as InstanceResult;
    // 1 + 2 retries.
    const m = compositeMetrics([
      composite(roundsOf("failed", "transaction")),
      composite(roundsOf("failed", "failed", "transaction")),
    ])!;
    expect(m.totalRetries).toBe(3);
    expect(renderCompositeMetrics(m)).toContain("· retries 3 ·");
  });
});
