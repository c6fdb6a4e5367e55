import { describe, expect, test } from "vitest";
import { loadTasks } from "../src/tasks/load.ts";
import {
  alive,
  descendants,
  questbench,
  readInstanceLines,
  readResults,
  tmp,
  waitFor,
} from "./helpers/cli.ts";

// SIGINT (Ctrl-C) and SIGKILL of a reference run keep every finished result, and the same command
// again resumes: finished instances are kept (marked resumed), the rest run, each exactly once.
const tasks = loadTasks();
const atomic = tasks.filter((t) => t.spec.split === "atomic").map((t) => t.spec.id);
const composite = tasks.filter((t) => t.spec.split === "composite").map((t) => t.spec.id);

async function interruptedThenResumed(ids: string[], signal: "SIGINT" | "SIGKILL", after: number) {
  const out = tmp("qb-resume-");
  const args = ["--model", "reference", "--tasks", ids.join(","), "--concurrency", "2", "--out", out];
  let pid = 0;
  let tree: number[] = [];
  const first = questbench(
    args,
    (p) => {
      pid = p;
    },
    { detached: signal === "SIGINT" },
  );
  await waitFor(() => readInstanceLines(out).length >= after, `${after} finished instances`);
  tree = descendants(pid).map((d) => d.pid);
  // Ctrl-C reaches the whole foreground job; kill -9 only the questbench process.
  if (signal === "SIGINT") process.kill(-pid, "SIGINT");
  else process.kill(pid, "SIGKILL");
  const r1 = await first;
  // Whatever the interrupted run left (its orphaned Anvils or worker) are this test's own processes.
  await waitFor(() => !tree.some(alive), "the interrupted run's processes to exit", 3_000).catch(() => {
    for (const p of tree) if (alive(p)) process.kill(p, "SIGKILL");
  });
  const kept = readInstanceLines(out);
  const keptIds = [...new Set(kept.map((i) => i.taskId))];
  expect(keptIds.length).toBeGreaterThanOrEqual(after);
  expect(keptIds.length, "the interruption came too late to leave work").toBeLessThan(ids.length);

  const r2 = await questbench(args);
  expect(r2.code, r2.stderr.slice(-2000)).toBe(0);
  const results = readResults(out);
  expect(results.instances.map((i) => i.taskId).sort()).toEqual([...ids].sort());
  expect(results.instances.every((i) => i.score === 100)).toBe(true);
  const resumed = results.instances.filter((i) => i.resumed).map((i) => i.taskId);
  expect(r2.stdout).toContain(`Resumed: ${resumed.length} instance(s) kept from an earlier run`);
  expect(resumed.sort()).toEqual(keptIds.sort());
  // Nothing lost: each kept result is the one in the final results, unchanged.
  for (const k of kept) {
    const final = results.instances.find((i) => i.taskId === k.taskId)!;
    expect({ ...final, resumed: undefined }).toEqual({ ...k, resumed: undefined });
  }
  expect(
    readInstanceLines(out)
      .map((i) => i.taskId)
      .sort(),
  ).toEqual([...ids].sort());
  return { out, args, r1, kept: keptIds.length };
}

describe("interrupting a reference run and running it again", () => {
  test("SIGINT to the run's process group after some instances finished: the rerun keeps them and runs only the rest", async () => {
    const ids = [...atomic.slice(0, 16), ...composite.slice(0, 4)];
    const { r1, kept } = await interruptedThenResumed(ids, "SIGINT", 5);
    expect(r1.code === 0, "the interrupted run must not report success").toBe(false);
    console.log(`SIGINT: ${kept}/${ids.length} kept`);
  }, 600_000);

  test("SIGKILL of the questbench process: the rerun keeps every finished instance; --fresh runs them all again", async () => {
    const ids = [...atomic.slice(16, 24), ...composite.slice(4, 6)];
    const { out, args, r1, kept } = await interruptedThenResumed(ids, "SIGKILL", 3);
    expect(r1.signal).toBe("SIGKILL");
    console.log(`SIGKILL: ${kept}/${ids.length} kept`);

    const fresh = await questbench([...args, "--fresh"]);
    expect(fresh.code, fresh.stderr.slice(-2000)).toBe(0);
    const results = readResults(out);
    expect(results.instances.map((i) => i.taskId).sort()).toEqual([...ids].sort());
    expect(results.instances.filter((i) => i.resumed)).toEqual([]);
    expect(readInstanceLines(out)).toHaveLength(ids.length);
  }, 600_000);
});
