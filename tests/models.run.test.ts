import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadTasks } from "../src/tasks/load.ts";
import { selectTasks } from "../src/tasks/select.ts";
import { loadWorld } from "../src/world/world.ts";
import { alive, descendants, readResults, questbench as run, tmp } from "./helpers/cli.ts";
import {
  type Behavior,
  type FakeProviderServer,
  type FakeRequest,
  startFakeProvider,
} from "./providers/fakeServer.ts";
import { goldAnswers } from "./providers/gold.ts";

// End to end through `npx questbench` and the real SDKs: the fake provider answers every prompt
// with the gold response, found from the conversation alone (tests/providers/gold.ts).
const world = loadWorld();
const tasks = loadTasks();

let server: FakeProviderServer;
let gold: (req: FakeRequest) => Promise<Behavior>;
let behave: (req: FakeRequest) => Behavior | Promise<Behavior>;
beforeAll(async () => {
  gold = await goldAnswers({ tasks, seed: 1, epochs: 1, world });
  behave = gold;
  server = await startFakeProvider((req) => behave(req));
});
afterAll(async () => {
  await server?.close();
});

/** `questbench ARGS` with provider variables on top (keys and the model's variables cleared first). */
const questbench = (
  args: string[],
  env: NodeJS.ProcessEnv = {},
  onSpawn?: (pid: number) => void,
  cwd?: string,
) => run(args, onSpawn, { env: { QUESTBENCH_OPTIONS: "", ...env }, ...(cwd ? { cwd } : {}) });

/** What identifies a request to the provider: model, conversation and sampling settings. */
const requestId = (r: FakeRequest) =>
  createHash("sha256")
    .update(JSON.stringify([r.body.model, r.messages, r.body.temperature, r.body.max_tokens, r.body.seed]))
    .digest("hex");

/**
 * Six atomic tasks with `--budget 0.03` at concurrency 1: some run, the rest are not started, and
 * what the run paid stays within the budget.
 */
async function expectStoppedByBudget(model: string[], env: NodeJS.ProcessEnv = {}) {
  const ids = tasks
    .filter((t) => t.spec.split === "atomic")
    .slice(0, 6)
    .map((t) => t.spec.id);
  const out = tmp();
  const r = await questbench(
    [
      ...model,
      "--tasks",
      ids.join(","),
      "--concurrency",
      "1",
      "--budget",
      "0.03",
      "--out",
      out,
      "--cache-dir",
      tmp(),
    ],
    env,
  );
  expect(r.code, r.stderr.slice(-2000)).toBe(0);
  const results = readResults(out);
  expect(results.instances.length).toBeGreaterThan(0);
  expect(results.notStarted!.length).toBeGreaterThan(0);
  expect(results.instances.length + results.notStarted!.length).toBe(ids.length);
  expect(results.summary.usage!.spentUsd).toBeLessThanOrEqual(0.03);
  return { r, results };
}

const perfect = (n: number) => ({ score: 100 * n, max: 100 * n, passed: n, count: n, tasks: n });

describe("real-model runs against the fake provider", () => {
  test("a missing API key is a one-line error naming the variable, before any chain starts", async () => {
    const out = tmp();
    const t0 = Date.now();
    const r = await questbench([
      "--model",
      "claude-sonnet-4.5",
      "--tasks",
      "bnb_transfer_basic",
      "--out",
      out,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      "questbench: ANTHROPIC_API_KEY is not set (model 'claude-sonnet-4.5' is claude-sonnet-4-5 on anthropic); export it or use --cache replay",
    ]);
    expect(readdirSync(out)).toEqual([]);
    // Refused before any chain or worker started (a bound on a hang; the CLI's start time is a bench figure).
    expect(Date.now() - t0).toBeLessThan(90_000);
  });

  test(
    "a full run through the OpenAI SDK scores what the reference model scores; the same command again makes no request",
    async () => {
      // The default split: the paper's 107.
      const selected = selectTasks(tasks, { split: "paper", tasks: [] });
      const out = tmp();
      const args = [
        "--model",
        `openai-compatible:${server.openaiBaseURL}#gold`,
        "--concurrency",
        "3",
        "--out",
        out,
        "--cache-dir",
        tmp(),
      ];
      const first = server.requests.length;
      const t0 = Date.now();
      const r = await questbench(args);
      const seconds = (Date.now() - t0) / 1000;
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const results = readResults(out);
      const n = selected.length;
      const paper = selected;
      const atomic = paper.filter((t) => t.spec.split === "atomic").length;
      expect(n).toBe(107);
      expect(results.summary.total).toEqual(perfect(paper.length));
      expect(results.summary.atomic).toEqual(perfect(atomic));
      expect(results.summary.composite).toEqual(perfect(paper.length - atomic));
      expect(results.summary.hard?.total).toEqual(perfect(0));
      expect(results.summary.providerErrors).toEqual({ atomic: 0, composite: 0, total: 0 });
      expect(results.manifest).toMatchObject({
        model: "openai-compatible:127.0.0.1#gold",
        provider: { name: "openai-compatible", api: "openai", modelId: "gold", price: null },
        sampling: { temperature: 0.7, maxTokens: 16384, seed: null },
        modelCalls: { cache: "on", maxRetries: 5 },
      });
      const reqs = server.requests.slice(first);
      expect(results.summary.usage).toMatchObject({ calls: reqs.length, cachedCalls: 0, costUsd: null });
      expect(new Set(reqs.map(requestId)).size).toBe(reqs.length);
      for (const i of results.instances) expect(i.usage?.calls).toBeGreaterThanOrEqual(1);
      console.log(`full fake-provider run: ${n} instances, ${reqs.length} requests, ${seconds.toFixed(0)} s`);

      const again = server.requests.length;
      const r2 = await questbench(args);
      expect(r2.code, r2.stderr.slice(-2000)).toBe(0);
      expect(server.requests.length).toBe(again);
      const rerun = readResults(out);
      expect(rerun.summary.total).toEqual(perfect(paper.length));
      expect(rerun.instances.every((i) => i.resumed)).toBe(true);
      expect(readFileSync(path.join(out, "instances.jsonl"), "utf8").trim().split("\n")).toHaveLength(n);
    },
    30 * 60_000,
  );

  test(
    "claude-sonnet-4.5 through the Anthropic SDK; a new --out over the same cache makes no request",
    async () => {
      const ids = [
        "erc20_transfer_fixed",
        "query_bnb_balance",
        tasks.find((t) => t.spec.split === "composite")!.spec.id,
      ];
      const cacheDir = tmp();
      const env = { ANTHROPIC_API_KEY: "sk-fake", ANTHROPIC_BASE_URL: server.anthropicBaseURL };
      const args = (out: string) => [
        "--model",
        "claude-sonnet-4.5",
        "--tasks",
        ids.join(","),
        "--out",
        out,
        "--cache-dir",
        cacheDir,
      ];
      const first = server.requests.length;
      const out = tmp();
      const r = await questbench(args(out), env);
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const reqs = server.requests.slice(first);
      expect(reqs.every((q) => q.api === "anthropic" && q.body.model === "claude-sonnet-4-5")).toBe(true);
      expect(reqs[0]!.body).toMatchObject({ temperature: 0.7, max_tokens: 16384 });
      const results = readResults(out);
      expect(results.summary.total).toEqual(perfect(3));
      expect(results.manifest.provider).toMatchObject({ name: "anthropic", price: { input: 3, output: 15 } });
      const usage = results.summary.usage!;
      expect(usage.calls).toBe(reqs.length);
      expect(usage.costUsd).toBeCloseTo((usage.inputTokens * 3 + usage.outputTokens * 15) / 1e6, 6);
      expect(usage.spentUsd).toBe(usage.costUsd);
      expect(r.stdout).toMatch(/Tokens: \d+ in, \d+ out in \d+ calls \(0 from the cache\) · cost \$/);

      const before = server.requests.length;
      const out2 = tmp();
      const r2 = await questbench(args(out2), env);
      expect(r2.code, r2.stderr.slice(-2000)).toBe(0);
      expect(server.requests.length).toBe(before);
      const cached = readResults(out2);
      expect(cached.summary.total).toEqual(perfect(3));
      expect(cached.summary.usage).toMatchObject({
        calls: usage.calls,
        cachedCalls: usage.calls,
        spentUsd: 0,
      });
      expect(cached.instances.some((i) => i.resumed)).toBe(false);
    },
    10 * 60_000,
  );

  test(
    "an instance the provider never answers is a provider_error: not scored, reported apart, retried by the next run",
    async () => {
      const ids = ["bnb_transfer_basic", "erc20_transfer_fixed"];
      const out = tmp();
      const args = [
        "--model",
        `openai-compatible:${server.openaiBaseURL}#gold`,
        "--tasks",
        ids.join(","),
        "--concurrency",
        "1",
        "--max-retries",
        "1",
        "--out",
        out,
        "--cache-dir",
        tmp(),
      ];
      const first = server.requests.length;
      behave = (req) => (req.n - first === 1 ? gold(req) : { kind: "status", status: 503 });
      const r1 = await questbench(args);
      behave = gold;
      expect(r1.code).toBe(1);
      expect(server.requests.slice(first).map((q) => q.status)).toEqual([200, 503, 503]);
      const failed = readResults(out);
      expect(failed.summary.atomic).toEqual(perfect(1));
      expect(failed.summary.providerErrors).toEqual({ atomic: 1, composite: 0, total: 1 });
      const broken = failed.instances.find((i) => i.failure?.class === "provider_error")!;
      expect(broken.failure).toMatchObject({ class: "provider_error", code: "server_error" });
      expect(broken.failure!.reason).toMatch(/HTTP 503/);
      expect(r1.stdout).toContain(
        "Provider errors: 1 instance(s) not scored (left out of scores and maxima above)",
      );

      const second = server.requests.length;
      const r2 = await questbench(args);
      expect(r2.code, r2.stderr.slice(-2000)).toBe(0);
      expect(server.requests.length - second).toBe(1);
      const fixed = readResults(out);
      expect(fixed.summary.total).toEqual(perfect(2));
      expect(fixed.summary.providerErrors).toEqual({ atomic: 0, composite: 0, total: 0 });
      expect(fixed.instances.find((i) => i.taskId === broken.taskId)!.resumed).toBeUndefined();
    },
    10 * 60_000,
  );

  test(
    "--budget stops starting new instances once the projected spend would pass it",
    async () => {
      const env = { ANTHROPIC_API_KEY: "sk-fake", ANTHROPIC_BASE_URL: server.anthropicBaseURL };
      // claude-sonnet-4.5's prior for one atomic instance is ≈ $0.028; the fake's short answers cost ≈ $0.008.
      const { r, results } = await expectStoppedByBudget(["--model", "claude-sonnet-4.5"], env);
      expect(results.manifest.modelCalls?.budgetUsd).toBe(0.03);
      expect(r.stdout).toContain("Not started (--budget 0.03 USD):");
    },
    10 * 60_000,
  );

  test(
    "a run killed with SIGKILL and started again scores every instance exactly once and repeats no answered request",
    async () => {
      const composites = tasks.filter((t) => t.spec.split === "composite").slice(0, 3);
      const atomics = tasks.filter((t) => t.spec.split === "atomic").slice(0, 7);
      const ids = [...atomics, ...composites].map((t) => t.spec.id);
      const out = tmp();
      const args = [
        "--model",
        `openai-compatible:${server.openaiBaseURL}#gold`,
        "--tasks",
        ids.join(","),
        "--concurrency",
        "2",
        "--out",
        out,
        "--cache-dir",
        tmp(),
      ];
      let pid = 0;
      let killed = false;
      let tree: number[] = [];
      const first = server.requests.length;
      behave = (req) => {
        if (killed) return { kind: "hang" };
        if (req.n - first < 8) return gold(req);
        // The 8th request hangs; answers already on their way get 400 ms to reach the cache, then kill -9.
        killed = true;
        setTimeout(() => {
          tree = descendants(pid).map((d) => d.pid);
          process.kill(pid, "SIGKILL");
        }, 400);
        return { kind: "hang" };
      };
      const r1 = await questbench(args, {}, (p) => {
        pid = p;
      });
      behave = gold;
      expect(r1.signal).toBe("SIGKILL");
      // The orphaned Vitest worker notices its parent is gone and exits by itself.
      const worker = tree.filter((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, "utf8").includes("vitest");
        } catch {
          return false;
        }
      });
      expect(worker.length).toBeGreaterThan(0);
      for (let i = 0; i < 40 && worker.some(alive); i++) await new Promise((r) => setTimeout(r, 250));
      expect(worker.filter(alive)).toEqual([]);
      // Anvil instances of the killed run are orphans too: end them (they are this test's own processes).
      for (const p of tree) if (alive(p)) process.kill(p, "SIGKILL");

      const run1 = server.requests.slice(first);
      const answered = new Set(run1.filter((q) => q.status === 200).map(requestId));
      const kept = existsSync(path.join(out, "instances.jsonl"))
        ? readFileSync(path.join(out, "instances.jsonl"), "utf8").trim().split("\n").filter(Boolean).length
        : 0;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(ids.length);

      const second = server.requests.length;
      const r2 = await questbench(args);
      expect(r2.code, r2.stderr.slice(-2000)).toBe(0);
      const run2 = server.requests.slice(second);
      expect(run2.filter((q) => answered.has(requestId(q)))).toEqual([]);
      const results = readResults(out);
      expect(results.instances.map((i) => i.taskId).sort()).toEqual([...ids].sort());
      expect(results.summary.total).toEqual(perfect(ids.length));
      expect(results.instances.filter((i) => i.resumed)).toHaveLength(kept);
      expect(readFileSync(path.join(out, "instances.jsonl"), "utf8").trim().split("\n")).toHaveLength(
        ids.length,
      );
    },
    10 * 60_000,
  );
});

describe("what a provider run pays, what names it, and its retries", () => {
  const local = () => `openai-compatible:${server.openaiBaseURL}#gold`;
  /** The local endpoint at Claude Sonnet 4.5's price (USD per million tokens), given on the command line. */
  const priced = () => ["--model", local(), "--price-in", "3", "--price-out", "15"];
  const atomicIds = tasks.filter((t) => t.spec.split === "atomic").map((t) => t.spec.id);
  /** The fake's answer to each request, by arrival number (its output tokens are priced too). */
  const answers = new Map<number, string>();
  const recordingGold = async (req: FakeRequest): Promise<Behavior> => {
    const b = await gold(req);
    if (b.kind === "answer") answers.set(req.n, b.text);
    return b;
  };
  /** USD of the answered requests at `price` (USD per million tokens), counted as the fake counts tokens. */
  const paidFor = (reqs: FakeRequest[], price: { input: number; output: number }) =>
    reqs
      .filter((q) => q.status === 200)
      .reduce((sum, q) => {
        const input = Math.ceil(q.messages.map((m) => m.content).join("").length / 4);
        const output = Math.ceil(answers.get(q.n)!.length / 4);
        return sum + (input * price.input + output * price.output) / 1e6;
      }, 0);

  test(
    "'paid by this run' is what this invocation paid: nothing on a full resume, only the added task's calls after one is added",
    async () => {
      behave = recordingGold;
      const price = { input: 3, output: 15 };
      const out = tmp();
      const args = (ids: string[]) => [
        ...priced(),
        "--tasks",
        ids.join(","),
        "--out",
        out,
        "--cache-dir",
        tmp(),
      ];
      const usd = (x: number) => `paid by this run $${x.toFixed(4)}`;

      let from = server.requests.length;
      const first = await questbench(args(atomicIds.slice(0, 2)));
      expect(first.code, first.stderr.slice(-2000)).toBe(0);
      const paidFirst = paidFor(server.requests.slice(from), price);
      expect(paidFirst).toBeGreaterThan(0);
      expect(readResults(out).manifest.selection!.paidUsd).toBeCloseTo(paidFirst, 6);
      expect(first.stdout).toContain(usd(paidFirst));

      from = server.requests.length;
      const resumed = await questbench(args(atomicIds.slice(0, 2)));
      expect(resumed.code, resumed.stderr.slice(-2000)).toBe(0);
      expect(server.requests.length).toBe(from);
      expect(readResults(out).manifest.selection).toMatchObject({ ran: 0, resumed: 2, paidUsd: 0 });
      expect(resumed.stdout).toContain(usd(0));

      from = server.requests.length;
      const added = await questbench(args(atomicIds.slice(0, 3)));
      expect(added.code, added.stderr.slice(-2000)).toBe(0);
      const paidAdded = paidFor(server.requests.slice(from), price);
      expect(server.requests.length - from).toBe(1);
      const results = readResults(out);
      expect(results.manifest.selection).toMatchObject({ ran: 1, resumed: 2 });
      expect(results.manifest.selection!.paidUsd).toBeCloseTo(paidAdded, 6);
      expect(added.stdout).toContain(usd(paidAdded));
      // The folder's usage is every instance's, paid when each ran.
      expect(results.summary.usage!.spentUsd).toBeCloseTo(paidFirst + paidAdded, 6);
      behave = gold;
    },
    10 * 60_000,
  );

  test(
    "an openai-compatible endpoint restarted on another port keeps its folder, its finished instances and its cache",
    async () => {
      const other = await startFakeProvider((req) => gold(req));
      try {
        const cwd = tmp();
        const ids = atomicIds.slice(3, 5).join(",");
        const at = (base: string, ...more: string[]) => [
          "--model",
          `openai-compatible:${base}#gold`,
          "--tasks",
          ids,
          ...more,
        ];
        expect(new URL(other.url).port).not.toBe(new URL(server.url).port);
        const from = server.requests.length;
        const first = await questbench(at(server.openaiBaseURL), {}, undefined, cwd);
        expect(first.code, first.stderr.slice(-2000)).toBe(0);
        const calls = server.requests.length - from;
        expect(calls).toBeGreaterThan(0);
        const folder = path.join(cwd, ".questbench/results/openai-compatible_127.0.0.1_gold");
        expect(readResults(folder).manifest.model).toBe("openai-compatible:127.0.0.1#gold");

        // Same folder, resumed: the other port is asked nothing.
        const again = await questbench(at(other.openaiBaseURL), {}, undefined, cwd);
        expect(again.code, again.stderr.slice(-2000)).toBe(0);
        expect(other.requests).toHaveLength(0);
        expect(readResults(folder).instances.every((i) => i.resumed)).toBe(true);

        // Started over: every call comes from the cache (.questbench/cache of the working directory).
        const fresh = await questbench(at(other.openaiBaseURL, "--fresh"), {}, undefined, cwd);
        expect(fresh.code, fresh.stderr.slice(-2000)).toBe(0);
        expect(other.requests).toHaveLength(0);
        expect(readResults(folder).summary.usage).toMatchObject({ calls, cachedCalls: calls });
      } finally {
        await other.close();
      }
    },
    10 * 60_000,
  );

  test(
    "--price-in/--price-out give a custom endpoint a cost and make --budget work; without them --budget is refused",
    async () => {
      const unpriced = await questbench([
        "--model",
        local(),
        "--tasks",
        atomicIds[0]!,
        "--budget",
        "0.03",
        "--out",
        tmp(),
      ]);
      expect(unpriced.code).toBe(1);
      expect(unpriced.stderr.trim().split("\n")).toEqual([
        `questbench: --budget needs a model with a price: '${local()}' has none in src/models/registry.json; give one with --price-in and --price-out (USD per million tokens)`,
      ]);
      const { results } = await expectStoppedByBudget(priced());
      expect(results.manifest.provider?.price).toEqual({ input: 3, output: 15 });
      expect(results.summary.usage!.costUsd).toBeGreaterThan(0);
    },
    10 * 60_000,
  );

  test(
    "a 429 and its Retry-After wait show in the progress lines while it waits, and in the instance's usage",
    async () => {
      const from = server.requests.length;
      behave = (req) =>
        req.n === from + 1 ? { kind: "status", status: 429, headers: { "retry-after": "1" } } : gold(req);
      const id = atomicIds[11]!;
      const out = tmp();
      const r = await questbench(["--model", local(), "--tasks", id, "--out", out, "--cache-dir", tmp()]);
      behave = gold;
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const lines = r.stdout.split("\n");
      const retry = lines.findIndex((l) =>
        l.startsWith(`… ${id}  HTTP 429: retry 1/5 after 1s (Retry-After)`),
      );
      const finished = lines.findIndex((l) => l.startsWith(`✓ ${id}  100`));
      expect(retry, r.stdout).toBeGreaterThanOrEqual(0);
      expect(finished).toBeGreaterThan(retry);
      expect(lines[finished]).toMatch(/ · retries 1 \(waited 1s\)\]$/);
      const usage = readResults(out).instances[0]!.usage!;
      expect(usage.retries).toBe(1);
      expect(usage.retryWaitMs).toBeGreaterThanOrEqual(900);
    },
    10 * 60_000,
  );
});
