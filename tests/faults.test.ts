import { readFileSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { loadTasks } from "../src/tasks/load.ts";
import { loadWorld } from "../src/world/world.ts";
import {
  alive,
  descendants,
  questbench,
  readInstanceLines,
  readResults,
  sleep,
  tmp,
  waitFor,
} from "./helpers/cli.ts";
import { startFakeProvider } from "./providers/fakeServer.ts";
import { goldAnswers } from "./providers/gold.ts";

// Faults around a real run: Anvil killed mid-run (infra retry), an edited scripted answer (resume
// key), a provider that is down (provider_error, completed by a rerun).
const tasks = loadTasks();
const atomic = tasks.filter((t) => t.spec.split === "atomic");
const composite = tasks.filter((t) => t.spec.split === "composite");

/**
 * How much the process has done so far: bytes read (/proc/<pid>/io rchar) plus CPU ticks
 * (/proc/<pid>/stat utime + stime). Either grows while Anvil serves requests; socket reads do not
 * always show in rchar, CPU time does.
 */
function rchar(pid: number): number {
  try {
    const io = Number(/rchar:\s*(\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return io + Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

describe("faults during a run", () => {
  // The kill is timed by sampling Anvil's activity between instances: a short run can finish before
  // it catches one mid-attempt; each retry is a new, independent fault injection.
  test("an Anvil instance killed with SIGKILL mid-run is replaced and its instance retried: every instance scores 100", {
    timeout: 150_000,
    retry: 2,
  }, async () => {
    // Enough instances that the loop below finds an Anvil mid-attempt: one attempt takes a few hundred
    // milliseconds, and a handful of them could finish before the first kill.
    const ids = [...atomic.slice(14, 30), ...composite.slice(6, 10)].map((t) => t.spec.id);
    const out = tmp("qb-infra-");
    let pid = 0;
    let done = false;
    const run = questbench(
      ["--model", "reference", "--tasks", ids.join(","), "--concurrency", "2", "--out", out],
      (p) => {
        pid = p;
      },
    ).finally(() => {
      done = true;
    });
    const killed: number[] = [];
    // Kill one Anvil that is serving an attempt (its read counter moving), after an instance has
    // finished. One kill only: killing again until a retry showed in instances.jsonl could hit the
    // retried instance's new chain each time and exhaust its retries (infra_error, by design), which
    // made this test fail about one run in four. A kill that lands between two attempts is a plain
    // replacement with no retry; Vitest's retry then injects a new fault.
    while (!done && killed.length === 0) {
      const lines = readInstanceLines(out).length;
      await waitFor(() => done || readInstanceLines(out).length > lines, "an instance to finish");
      if (done) break;
      const anvils = descendants(pid).filter(
        (d) => /\/anvil(\s|$)/.test(d.cmdline.split(" ")[0] ?? "") && !killed.includes(d.pid),
      );
      let target: number | undefined;
      for (let tries = 0; tries < 100 && target === undefined && !done; tries++) {
        const before = anvils.map((a) => rchar(a.pid));
        await sleep(20);
        target = anvils.find((a, i) => rchar(a.pid) > before[i]!)?.pid;
      }
      if (target === undefined) continue;
      process.kill(target, "SIGKILL");
      killed.push(target);
    }
    const r = await run;
    for (const p of killed) expect(alive(p)).toBe(false);
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    const results = readResults(out);
    expect(results.instances.map((i) => i.taskId).sort()).toEqual([...ids].sort());
    for (const i of results.instances) expect(i, i.taskId).toMatchObject({ score: 100, failure: null });
    const retries = results.instances.reduce((n, i) => n + (i.infraRetries ?? 0), 0);
    console.log(`Anvil kills: ${killed.length}, infra retries in results.json: ${retries}`);
    expect(killed.length).toBeGreaterThan(0);
    expect(retries).toBeGreaterThan(0);
    expect(r.stdout).toContain(`Infrastructure retries: ${retries} attempt(s) run again`);
  });

  test("an instance whose chain fails under every retry is recorded as infra_error and scored 0, not dropped", async () => {
    const ids = [atomic[30]!.spec.id, atomic[31]!.spec.id];
    const out = tmp("qb-infra-exhausted-");
    let pid = 0;
    let done = false;
    const run = questbench(
      ["--model", "reference", "--tasks", ids.join(","), "--concurrency", "1", "--out", out],
      (p) => {
        pid = p;
      },
    ).finally(() => {
      done = true;
    });
    // Once the first instance has finished, kill every Anvil of the run as soon as it appears.
    await waitFor(() => done || readInstanceLines(out).length > 0, "the first instance");
    let kills = 0;
    while (!done) {
      for (const d of descendants(pid))
        if (/\/anvil(\s|$)/.test(d.cmdline.split(" ")[0] ?? "")) {
          process.kill(d.pid, "SIGKILL");
          kills++;
        }
      await sleep(20);
    }
    const r = await run;
    expect(r.code).toBe(1);
    const results = readResults(out);
    const [first, second] = ids.map((id) => results.instances.find((i) => i.taskId === id));
    expect(first).toMatchObject({ score: 100 });
    expect(second).toMatchObject({ score: 0, failure: { class: "infra_error" }, infraRetries: 2 });
    // Counted: a broken chain cannot shrink the maximum.
    expect(results.summary.atomic).toMatchObject({ score: 100, max: 200, count: 2 });
    console.log(`Anvil kills: ${kills}; ${second?.failure?.reason}; ${second?.durationMs} ms`);
    // Usually ~12 s. Once in CI (a loaded machine) the three attempts took 180 s, about one 60 s
    // harness timeout each (transport/receipt waits, src/world/rpcHttp.ts, src/protocol/chain.ts):
    // the outcome was right, so the limit leaves room for three of them.
  }, 600_000);

  test("a scripted model's edited answer is run again; its unedited answers are resumed", async () => {
    const picked = atomic.slice(0, 2);
    const dir = tmp("qb-scripted-");
    for (const t of picked) writeFileSync(path.join(dir, `${t.spec.id}.md`), t.spec.reference!.response!);
    const out = tmp("qb-scripted-out-");
    const args = [
      "--model",
      `scripted:${dir}`,
      "--tasks",
      picked.map((t) => t.spec.id).join(","),
      "--out",
      out,
    ];
    const r1 = await questbench(args);
    expect(r1.code, r1.stderr.slice(-2000)).toBe(0);
    expect(readResults(out).instances.every((i) => i.score === 100 && !i.resumed)).toBe(true);

    const edited = picked[0]!.spec.id;
    writeFileSync(
      path.join(dir, `${edited}.md`),
      `${picked[0]!.spec.reference!.response}\n\nEdited by hand.`,
    );
    const r2 = await questbench(args);
    expect(r2.code, r2.stderr.slice(-2000)).toBe(0);
    const results = readResults(out);
    expect(Object.fromEntries(results.instances.map((i) => [i.taskId, i.resumed ?? false]))).toEqual({
      [edited]: false,
      [picked[1]!.spec.id]: true,
    });
    expect(results.instances.find((i) => i.taskId === edited)?.response).toContain("Edited by hand.");
  }, 600_000);

  test("a provider that refuses connections yields provider_error instances; a rerun once it is up completes them", async () => {
    const picked = [atomic[0]!, composite[0]!];
    const world = loadWorld();
    const provider = await startFakeProvider(await goldAnswers({ tasks: picked, seed: 1, epochs: 1, world }));
    // A fixed port where nothing listens yet: the model name (and its resume key) stays the same.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const args = [
      "--model",
      `openai-compatible:http://127.0.0.1:${port}/v1#gold`,
      "--tasks",
      picked.map((t) => t.spec.id).join(","),
      "--max-retries",
      "1",
      "--out",
      tmp("qb-down-"),
      "--cache-dir",
      tmp("qb-down-cache-"),
    ];
    const out = args[args.indexOf("--out") + 1]!;
    let proxy: Server | undefined;
    try {
      const down = await questbench(args);
      expect(down.code).toBe(1);
      const failed = readResults(out);
      expect(failed.instances.map((i) => i.failure?.class)).toEqual(["provider_error", "provider_error"]);
      expect(failed.summary.providerErrors).toEqual({ atomic: 1, composite: 1, total: 2 });
      expect(failed.summary.total).toMatchObject({ max: 0, count: 0 });
      expect(provider.requests).toHaveLength(0);

      // The provider comes up on that port.
      const upstream = new URL(provider.openaiBaseURL);
      proxy = createServer((socket) => {
        const to = connect(Number(upstream.port), upstream.hostname);
        socket.pipe(to).pipe(socket);
        to.on("error", () => socket.destroy());
        socket.on("error", () => to.destroy());
      });
      await new Promise<void>((resolve) => proxy!.listen(port, "127.0.0.1", resolve));
      const up = await questbench(args);
      expect(up.code, up.stderr.slice(-2000)).toBe(0);
      const results = readResults(out);
      expect(results.instances.map((i) => [i.score, i.failure, i.resumed ?? false])).toEqual([
        [100, null, false],
        [100, null, false],
      ]);
      expect(results.summary.providerErrors).toEqual({ atomic: 0, composite: 0, total: 0 });
      expect(provider.requests.length).toBeGreaterThan(0);
    } finally {
      proxy?.close();
      await provider.close();
    }
  }, 600_000);
});
