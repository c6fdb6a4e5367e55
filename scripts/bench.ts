// `npm run bench [-- --sections loop,full,bare,concurrency,epochs,sandbox,viewer,cli --runs 3 --latency-ms 1000 --levels 1,4,16 --epochs 5 --baseline REF]`
//
// The harness's performance figures, measured on this machine in one invocation (docs/PERFORMANCE.md "Measuring"). Not a
// test: it prints figures and asserts nothing. Every run is a real `questbench` process against
// real Anvil instances; memory is read from /proc while the runs go.
//
//   loop         the validator author's loop, the three figures of docs/PERFORMANCE.md "The author's loop" (medians of --runs): one
//                task cold (`--tasks erc20_transfer_fixed --fresh`, with the phase breakdown of the
//                median run), a Vitest watch-mode re-run after a validator edit (edit → results.json
//                rewritten, in a copy of the project), and the full reference run (shared with `full`).
//   full         the full reference run (the paper's 107 instances, --split paper) --runs times: wall time, median,
//                and per atomic execution the median of each phase (transpile, sandbox start, module
//                run, sign + send + receipt, checks, revert, pre-state); peak RSS of the harness's
//                processes, of each Anvil and of the sandbox children.
//   bare         the bare minimum for the same work: a plain Node script (ethers imported once) runs
//                the same modules and sends the same transactions to the same world; also one fresh
//                `node` per execution. Ratio harness / bare per atomic transaction execution, both
//                sides sequential (the harness at --concurrency 1).
//   concurrency  a fake OpenAI-compatible provider answers every request with the gold response after
//                --latency-ms; the full run at each --levels concurrency, against the ideal
//                (requests × latency / C + harness time of the reference run).
//   epochs       --epochs 5 of the full reference run: time per epoch and peak RSS per fifth of the
//                run, to show that nothing grows with run length.
//   --baseline   a git ref (e.g. `main~3`): the full reference run (sections full, loop) also runs from a
//                checkout of that ref (a detached worktree sharing this tree's node_modules), each
//                round alternating which goes first, so a change's cost is two medians of one call.
//   viewer       `questbench view` (docs/VIEWER.md "Performance"): 20 models × 3 epochs × 196 synthetic instances
//                generated in the scratch folder; first paint (cold and warm) and each filter's redraw,
//                measured in headless Chromium (/usr/bin/chromium), against the 1 s target.
//   cli          the installed package's `questbench` start (README "Install as a dependency"): the tarball
//                `npm pack` makes (so built) installed into an empty project from npm's cache; median of 5
//                of --help, --version and three usage errors, each a fresh process, against the 300 ms target.
//   sandbox      per-execution sandbox overhead, old runtime (the harness's Node) against the
//                sandbox runtime (Node ≥ 25), and the full reference run's wall-time ratio (docs/SECURITY.md "Design choice: the network barrier").
//                With --baseline, also the sandbox start and module run of this tree against the
//                baseline's on the sandbox runtime, cold, in alternating rounds (scripts/sandboxSamples.ts).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import { transform } from "esbuild";
import { extractModule } from "../src/protocol/parse.ts";
import { median } from "../src/results/stats.ts";
import type { InstanceResult } from "../src/results/types.ts";
import { readPhases, renderPhases } from "../src/run/phases.ts";
import { benchSandbox } from "../src/sandbox/benchSandbox.ts";
import { loadTasks, PROJECT_ROOT } from "../src/tasks/load.ts";
import { startAnvil } from "../src/world/anvil.ts";
import { primeWorldClock } from "../src/world/pool.ts";
import { loadWorld, worldStatePath } from "../src/world/world.ts";
import { projectCopy } from "../tests/helpers/cli.ts";
import { startFakeProvider } from "../tests/providers/fakeServer.ts";
import { goldAnswers } from "../tests/providers/gold.ts";

const { values: flags } = parseArgs({
  options: {
    sections: { type: "string", default: "loop,full,bare,concurrency,epochs,sandbox,viewer,cli" },
    runs: { type: "string", default: "3" },
    "latency-ms": { type: "string", default: "1000" },
    levels: { type: "string", default: "1,4,16" },
    epochs: { type: "string", default: "5" },
    seed: { type: "string", default: "1" },
    baseline: { type: "string" },
  },
});
const sections = new Set(flags.sections.split(","));
const seed = Number(flags.seed);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "qb-bench-"));
// The baseline checkout lives here and, as root, its sandbox children run under other uids that must
// traverse into it (docs/SECURITY.md): mkdtemp's 0700 would shut them out.
fs.chmodSync(scratch, 0o755);
const world = loadWorld();

// ---------------------------------------------------------------- measurement helpers

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const ms = (x: number) => `${x.toFixed(1)} ms`;

type ProcKind = "anvil" | "sandbox" | "harness";
type Sample = { t: number; harnessKb: number; anvilKb: number[] };
type Watched = {
  wallMs: number;
  code: number | null;
  peakKb: Map<number, { kind: ProcKind; kb: number; cmd: string }>;
  series: Sample[];
};

function children(): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      byParent.set(ppid, [...(byParent.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  return byParent;
}

function descendants(root: number): number[] {
  const byParent = children();
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(byParent.get(pid) ?? []));
  }
  return out;
}

function rssKb(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function kindOf(cmd: string): ProcKind {
  if (cmd.includes("anvil")) return "anvil";
  if (cmd.includes("runner.mjs")) return "sandbox";
  return "harness";
}

/**
 * Runs `questbench ARGS` (from the project at `root`, default this tree) and samples the RSS of every
 * process of its tree every 100 ms.
 */
function watch(args: string[], env: NodeJS.ProcessEnv = {}, root = PROJECT_ROOT): Promise<Watched> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [path.join(root, "bin/questbench.mjs"), ...args], {
      cwd: root,
      env: { ...process.env, QUESTBENCH_MODEL: "", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const peakKb: Watched["peakKb"] = new Map();
    const series: Sample[] = [];
    const timer = setInterval(() => {
      if (child.pid === undefined) return;
      let harnessKb = 0;
      const anvilKb: number[] = [];
      for (const pid of descendants(child.pid)) {
        const kb = rssKb(pid);
        if (kb === undefined) continue;
        let cmd = "";
        try {
          cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
        } catch {
          continue;
        }
        const kind = kindOf(cmd);
        if (kind === "harness") harnessKb += kb;
        if (kind === "anvil") anvilKb.push(kb);
        const seen = peakKb.get(pid);
        if (!seen || seen.kb < kb) peakKb.set(pid, { kind, kb, cmd: cmd.slice(0, 120) });
      }
      series.push({ t: performance.now() - t0, harnessKb, anvilKb });
    }, 100);
    child.on("close", (code) => {
      clearInterval(timer);
      if (code !== 0)
        console.error(`  (questbench exited ${code}: ${stderr.trim().split("\n").slice(-3).join(" | ")})`);
      resolve({ wallMs: performance.now() - t0, code, peakKb, series });
    });
  });
}

/** Runs `node ARGS` and returns its stdout; a failure is thrown with the script's own stderr. */
function runNode(args: string[], input = ""): string {
  try {
    return execFileSync(process.execPath, args, { input, stdio: ["pipe", "pipe", "pipe"] }).toString();
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`node ${path.basename(args[0]!)} failed:\n${stderr.slice(-2000)}`);
  }
}

function readInstances(out: string): InstanceResult[] {
  return fs
    .readFileSync(path.join(out, "instances.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as InstanceResult);
}

function memoryLine(w: Watched): string {
  const peaks = [...w.peakKb.values()];
  const by = (kind: ProcKind) => peaks.filter((p) => p.kind === kind).map((p) => p.kb);
  const anvils = by("anvil");
  const sandbox = by("sandbox");
  const harnessTotal = Math.max(...w.series.map((s) => s.harnessKb));
  const harness = peaks.filter((p) => p.kind === "harness").sort((a, b) => b.kb - a.kb);
  return [
    `harness processes peak together ${mb(harnessTotal)} (largest: ${harness
      .slice(0, 3)
      .map(
        (p) =>
          `${mb(p.kb)} ${/vitest|forks/.test(p.cmd) ? "vitest worker" : /questbench\.mjs/.test(p.cmd) ? "main" : p.cmd.split(" ")[0]!.split("/").pop()}`,
      )
      .join(", ")})`,
    `each Anvil peak ${anvils.map(mb).join(", ")} (max ${mb(Math.max(...anvils))})`,
    `sandbox children peak ${mb(Math.max(0, ...sandbox))} each (max of ${sandbox.length} sampled)`,
  ].join("\n  ");
}

const PHASES: [string, (t: Record<string, number>) => number][] = [
  ["transpile (esbuild)", (t) => t["sandbox.transpileMs"] ?? 0],
  ["sandbox start (wait for a booted child)", (t) => t["sandbox.spawnMs"] ?? 0],
  ["module run (imports + executeSkill)", (t) => t["sandbox.runMs"] ?? 0],
  ["sign + send + receipt", (t) => t.send ?? 0],
  [
    "checks (pre reads, init, checks)",
    (t) => (t["checks.pre"] ?? 0) + (t["checks.init"] ?? 0) + (t.checks ?? 0),
  ],
  ["revert to snapshot + clock pin", (t) => t.reset ?? 0],
  ["pre-state actions", (t) => t.preState ?? 0],
];

function breakdown(instances: InstanceResult[]): string {
  const atomic = instances.filter((i) => i.split === "atomic");
  const rows = PHASES.map(
    ([name, pick]) =>
      `    ${name.padEnd(42)} ${ms(median(atomic.map((i) => pick(i.timings as Record<string, number>))))}`,
  );
  return [
    `  per atomic execution, median over ${atomic.length} (ms):`,
    ...rows,
    `    ${"whole instance (durationMs)".padEnd(42)} ${ms(median(atomic.map((i) => i.durationMs)))}`,
  ].join("\n");
}

// ---------------------------------------------------------------- sections

const report: string[] = [];
const say = (line = "") => {
  console.log(line);
  report.push(line);
};

say(
  `EVM-QuestBench bench — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), ${mb(os.totalmem() / 1024)} RAM`,
);
say(
  `git ${execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: PROJECT_ROOT }).toString().trim()}, load average before start ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);

let harnessWallMs = Number.NaN;

/**
 * A checkout of `ref` beside this tree (a detached git worktree under the scratch folder), sharing
 * this tree's node_modules, for `--baseline`. Removed when the bench ends.
 */
function baselineCheckout(ref: string): { root: string; commit: string } {
  baselineMade ??= makeBaselineCheckout(ref);
  return baselineMade;
}
let baselineMade: { root: string; commit: string } | undefined;

function makeBaselineCheckout(ref: string): { root: string; commit: string } {
  const root = path.join(scratch, "baseline");
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"] })
      .toString()
      .trim();
  const commit = git("rev-parse", "--short", `${ref}^{commit}`);
  git("worktree", "add", "--detach", root, commit);
  fs.symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(root, "node_modules"), "dir");
  process.on("exit", () => {
    try {
      execFileSync("git", ["worktree", "remove", "--force", root], { cwd: PROJECT_ROOT, stdio: "ignore" });
    } catch {
      // already gone
    }
  });
  return { root, commit };
}

/**
 * The full reference run, --runs times (sections `full` and `loop` share the runs); with --baseline,
 * the same run from the baseline checkout in each round, alternating which of the two goes first.
 */
async function fullRuns() {
  if (fullResults) return fullResults;
  // The paper's 107 (--split paper, the default run): the figure docs/PERFORMANCE.md "The author's loop" targets.
  say("\n1. Full reference run (the paper's 107 instances, --split paper, --concurrency 2)");
  const baseline = flags.baseline ? baselineCheckout(flags.baseline) : undefined;
  if (baseline) say(`  baseline: ${flags.baseline} = ${baseline.commit}, run from ${baseline.root}`);
  // Each run gets a cache folder of its own: every gold run of the effect check is live (cold), as in
  // a first run, never read back from an earlier round.
  const args = (out: string) => [
    "--model",
    "reference",
    "--seed",
    String(seed),
    "--split",
    "paper",
    "--out",
    out,
    "--cache-dir",
    `${out}-cache`,
    "--fresh",
  ];
  const runs: { w: Watched; out: string }[] = [];
  const baseRuns: { w: Watched; out: string }[] = [];
  for (let i = 0; i < Number(flags.runs); i++) {
    const out = path.join(scratch, `full-${i}`);
    const baseOut = path.join(scratch, `full-base-${i}`);
    const current = async () => {
      const w = await watch(args(out));
      runs.push({ w, out });
      say(`  run ${i + 1}: ${sec(w.wallMs)}`);
    };
    const base = async () => {
      const w = await watch(args(baseOut), {}, baseline!.root);
      baseRuns.push({ w, out: baseOut });
      say(`  run ${i + 1} (baseline): ${sec(w.wallMs)}`);
    };
    const order = !baseline ? [current] : i % 2 === 0 ? [base, current] : [current, base];
    for (const run of order) await run();
  }
  harnessWallMs = median(runs.map((r) => r.w.wallMs));
  const mid = [...runs].sort((a, b) => a.w.wallMs - b.w.wallMs)[Math.floor(runs.length / 2)]!;
  const instances = readInstances(mid.out);
  const scored = instances.filter((i) => i.score === 100).length;
  say(
    `  median wall ${sec(harnessWallMs)} (target ≤ 30 s); median run scored ${scored}/${instances.length} at 100`,
  );
  if (baseline) {
    const baseMs = median(baseRuns.map((r) => r.w.wallMs));
    say(
      `  BASELINE ${baseline.commit}: median wall ${sec(baseMs)}; this tree / baseline = ${(harnessWallMs / baseMs).toFixed(3)}× (medians of ${flags.runs}, one call)`,
    );
  }
  fullResults = { mid, instances };
  return fullResults;
}
let fullResults: { mid: { w: Watched; out: string }; instances: InstanceResult[] } | undefined;

if (sections.has("loop")) {
  say("\n0. The author's loop");
  const cold: { wallMs: number; phases: string }[] = [];
  for (let i = 0; i < Number(flags.runs); i++) {
    const phasesFile = path.join(scratch, `phases-${i}.tsv`);
    const w = await watch(
      [
        "--model",
        "reference",
        "--tasks",
        "erc20_transfer_fixed",
        "--fresh",
        "--out",
        path.join(scratch, `cold-${i}`),
      ],
      { QUESTBENCH_PHASES: phasesFile },
    );
    cold.push({ wallMs: w.wallMs, phases: renderPhases(readPhases(phasesFile)) });
    say(`  one task cold, run ${i + 1}: ${sec(w.wallMs)}`);
  }
  const coldMid = [...cold].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(cold.length / 2)]!;
  say("  phases of the median one-task run (ms since the process started, + since the previous mark):");
  say(coldMid.phases.replace(/^/gm, "    "));
  const rerunMs = await watchRerunMs(Number(flags.runs));
  say(`  watch re-runs after a validator edit: ${rerunMs.map((x) => `${Math.round(x)} ms`).join(" / ")}`);
  await fullRuns();
  say(
    `  FIGURES (medians of ${flags.runs}): one task cold ${sec(median(cold.map((c) => c.wallMs)))} (target ≤ 4 s) · watch re-run after a validator edit ${Math.round(median(rerunMs))} ms (target ≤ 1 s) · full reference run ${sec(harnessWallMs)} (target ≤ 30 s)`,
  );
}

/**
 * Vitest watch mode over one task (erc20_approve) in a copy of the project: each round edits the
 * state checks (alternately breaking them and restoring them) and times the edit → the rewritten
 * results.json with the expected score.
 */
async function watchRerunMs(rounds: number): Promise<number[]> {
  const root = projectCopy();
  const out = path.join(root, "out");
  const child = spawn(
    process.execPath,
    [
      path.join(root, "node_modules/vitest/vitest.mjs"),
      "--watch",
      "--project",
      "benchmark",
      "--mode",
      "reference",
    ],
    {
      cwd: root,
      env: { ...process.env, QUESTBENCH_TASKS: "erc20_approve", QUESTBENCH_OUT: out, CI: "" },
      stdio: ["pipe", "ignore", "ignore"],
    },
  );
  const results = path.join(out, "results.json");
  const score = () => {
    try {
      return (JSON.parse(fs.readFileSync(results, "utf8")) as { instances: InstanceResult[] }).instances[0]
        ?.score;
    } catch {
      return undefined;
    }
  };
  const until = async (ok: () => boolean, what: string) => {
    const t0 = performance.now();
    while (!ok()) {
      if (performance.now() - t0 > 240_000) throw new Error(`watch: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const times: number[] = [];
  try {
    await until(() => score() === 100, "the first run");
    const file = path.join(root, "src/validators/checks/stateChecks.ts");
    const original = fs.readFileSync(file, "utf8");
    const broken = original.replaceAll("passed: compareValues(", "passed: false && compareValues(");
    if (broken === original) throw new Error("watch: the validator edit no longer applies");
    for (let i = 0; i < rounds; i++) {
      const breaking = i % 2 === 0;
      const before = fs.statSync(results).mtimeMs;
      const t0 = performance.now();
      fs.writeFileSync(file, breaking ? broken : original);
      await until(
        () => fs.statSync(results).mtimeMs !== before && (score() === 100) !== breaking,
        `re-run ${i + 1}`,
      );
      times.push(performance.now() - t0);
    }
  } finally {
    child.kill("SIGTERM");
  }
  return times;
}

if (sections.has("full")) {
  const { mid, instances } = await fullRuns();
  say(breakdown(instances));
  say("  memory (median run):");
  say(`  ${memoryLine(mid.w)}`);
}

if (sections.has("bare")) {
  say("\n2. Harness vs bare script, per atomic transaction execution (both sequential)");
  const out = path.join(scratch, "atomic-c1");
  const w = await watch([
    "--model",
    "reference",
    "--seed",
    String(seed),
    "--split",
    "atomic",
    "--concurrency",
    "1",
    "--out",
    out,
    "--fresh",
  ]);
  const instances = readInstances(out).filter((i) => i.split === "atomic" && i.transaction);
  const harnessMs = median(instances.map((i) => i.durationMs));
  say(
    `  harness: ${instances.length} transaction instances, run wall ${sec(w.wallMs)}, median per instance ${ms(harnessMs)}`,
  );
  say(breakdown(instances));

  // The same modules, transpiled once, as plain files next to node_modules (ethers resolves normally).
  const dir = path.join(PROJECT_ROOT, ".questbench", "bench-bare");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const modules: string[] = [];
  for (const [n, instance] of instances.entries()) {
    const extracted = extractModule(instance.response);
    if (!extracted.ok) continue;
    const js = await transform(extracted.code, { loader: "ts", format: "esm", target: "node20" });
    const file = path.join(dir, `m${n}.mjs`);
    fs.writeFileSync(file, js.code);
    modules.push(file);
  }
  const bareScript = path.join(dir, "bare.mjs");
  fs.writeFileSync(
    bareScript,
    `// The bare minimum: import ethers, then for each line {url, file} on stdin run the module, sign its
// transaction, send it and wait for the receipt; answer one line {ms, error} per execution.
import http from "node:http";
import readline from "node:readline";
import { ethers } from "ethers";
const [key, contractsJson] = process.argv.slice(2);
const contracts = JSON.parse(contractsJson);
const wallet = new ethers.Wallet(key);
let id = 0;
function rpc(url, method, params) {
  const payload = JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params });
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => { text += chunk; });
      response.on("end", () => {
        const body = JSON.parse(text);
        if (body.error) reject(new Error(method + ": " + body.error.message));
        else resolve(body.result);
      });
    });
    request.on("error", reject);
    request.end(payload);
  });
}
for await (const line of readline.createInterface({ input: process.stdin })) {
  const { url, file } = JSON.parse(line);
  const t0 = performance.now();
  let error;
  try {
    const { executeSkill } = await import(file);
    const tx = await executeSkill(url, wallet.address, contracts);
    const request = { from: wallet.address, to: tx.to, data: tx.data ?? "0x", value: ethers.toQuantity(tx.value ?? 0n) };
    // Gas as the harness sets it: the estimate × 1.25, or 1,000,000 when the call reverts.
    const gasLimit = await rpc(url, "eth_estimateGas", [request]).then((g) => (BigInt(g) * 125n) / 100n, () => 1_000_000n);
    const [nonce, block, tip] = await Promise.all([
      rpc(url, "eth_getTransactionCount", [wallet.address, "pending"]),
      rpc(url, "eth_getBlockByNumber", ["latest", false]),
      rpc(url, "eth_maxPriorityFeePerGas", []),
    ]);
    const signed = await wallet.signTransaction({
      type: 2, chainId: 56, nonce: Number(nonce), to: tx.to, data: request.data, value: tx.value ?? 0n, gasLimit,
      maxPriorityFeePerGas: BigInt(tip), maxFeePerGas: BigInt(block.baseFeePerGas) * 2n + BigInt(tip),
    });
    const hash = await rpc(url, "eth_sendRawTransaction", [signed]);
    while (!(await rpc(url, "eth_getTransactionReceipt", [hash]))) await new Promise((r) => setTimeout(r, 5));
  } catch (caught) {
    error = String(caught?.shortMessage ?? caught?.message ?? caught).slice(0, 120);
  }
  console.log(JSON.stringify({ ms: performance.now() - t0, error }));
}
`,
  );
  // Each execution meets a fresh Anvil booted from the world state (not timed), as each harness
  // instance meets the reverted snapshot.
  const freshWorld = async () => {
    const anvil = await startAnvil({ loadState: worldStatePath(), chainId: world.chainId });
    await primeWorldClock(anvil.url);
    return anvil;
  };
  const args = [bareScript, world.agent.privateKey, JSON.stringify(world.contracts)];
  // (a) One process for every execution, ethers imported once.
  const bare = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  const answers = readline.createInterface({ input: bare.stdout! })[Symbol.asyncIterator]();
  const oneProcess: { ms: number; error?: string }[] = [];
  for (const file of modules) {
    const anvil = await freshWorld();
    bare.stdin!.write(`${JSON.stringify({ url: anvil.url, file })}\n`);
    const line = await answers.next();
    oneProcess.push(JSON.parse(String(line.value)));
    await anvil.stop();
  }
  bare.stdin!.end();
  // (b) One fresh `node` per execution: the floor for running each module in a process of its own.
  const fresh: number[] = [];
  for (const file of modules) {
    const anvil = await freshWorld();
    const t0 = performance.now();
    runNode([...args], `${JSON.stringify({ url: anvil.url, file })}\n`);
    fresh.push(performance.now() - t0);
    await anvil.stop();
  }
  const bareMs = median(oneProcess.map((r) => r.ms));
  const errors = oneProcess.flatMap((r) => (r.error ? [r.error] : []));
  const freshMs = median(fresh);
  say(
    `  bare script, one process (ethers imported once): median ${ms(bareMs)} per execution (${errors.length} of ${modules.length} not sent: ${[...new Set(errors)].join("; ") || "none"})`,
  );
  say(`  bare script, one fresh node per execution:       median ${ms(freshMs)} per execution`);
  say(`  ratio harness / bare (one process):  ${(harnessMs / bareMs).toFixed(2)}× (target ≤ 2×)`);
  say(`  ratio harness / bare (fresh node):   ${(harnessMs / freshMs).toFixed(2)}×`);
}

if (sections.has("concurrency")) {
  const latency = Number(flags["latency-ms"]);
  say(
    `\n3. Concurrency with a fake provider answering after L = ${latency} ms (OpenAI-compatible, cache off)`,
  );
  if (Number.isNaN(harnessWallMs)) {
    const out = path.join(scratch, "full-h");
    harnessWallMs = (await watch(["--model", "reference", "--seed", String(seed), "--out", out, "--fresh"]))
      .wallMs;
  }
  const gold = await goldAnswers({ tasks: loadTasks(), seed, epochs: 1, world });
  const server = await startFakeProvider(async (req) => ({
    kind: "slow",
    delayMs: latency,
    next: await gold(req),
  }));
  try {
    say(`  harness time H = median full reference run above: ${sec(harnessWallMs)}`);
    for (const level of flags.levels.split(",").map(Number)) {
      const before = server.requests.length;
      const out = path.join(scratch, `c${level}`);
      const w = await watch(
        [
          "--model",
          `openai-compatible:${server.openaiBaseURL}#gold`,
          "--seed",
          String(seed),
          "--concurrency",
          String(level),
          "--cache",
          "off",
          "--out",
          out,
          "--fresh",
        ],
        { OPENAI_API_KEY: "bench" },
      );
      const requests = server.requests.length - before;
      const ideal = (requests * latency) / level + harnessWallMs;
      const scored = readInstances(out).filter((i) => i.score === 100).length;
      say(
        `  C = ${String(level).padStart(2)}: ${sec(w.wallMs).padStart(7)}  (${requests} requests, ideal ${sec(ideal)}, efficiency ${((100 * ideal) / w.wallMs).toFixed(0)} %, ${scored}/107 at 100; Anvils ${mb(Math.max(...[...w.peakKb.values()].filter((p) => p.kind === "anvil").map((p) => p.kb)))} max each)`,
      );
    }
  } finally {
    await server.close();
  }
}

if (sections.has("epochs")) {
  const epochs = Number(flags.epochs);
  say(`\n4. Growth: the full reference run with --epochs ${epochs}`);
  const out = path.join(scratch, "epochs");
  const w = await watch([
    "--model",
    "reference",
    "--seed",
    String(seed),
    "--epochs",
    String(epochs),
    "--out",
    out,
    "--fresh",
  ]);
  const instances = readInstances(out);
  say(
    `  ${instances.length} instances in ${sec(w.wallMs)}, ${instances.filter((i) => i.score === 100).length} at 100`,
  );
  for (let e = 0; e < epochs; e++) {
    const mine = instances.filter((i) => i.epoch === e);
    say(
      `  epoch ${e + 1}: median instance ${ms(median(mine.map((i) => i.durationMs)))}, mean ${ms(mine.reduce((a, i) => a + i.durationMs, 0) / Math.max(1, mine.length))}`,
    );
  }
  const fifth = w.wallMs / 5;
  for (let k = 0; k < 5; k++) {
    const window = w.series.filter((s) => s.t >= k * fifth && s.t < (k + 1) * fifth);
    const harness = Math.max(0, ...window.map((s) => s.harnessKb));
    const anvil = Math.max(0, ...window.flatMap((s) => s.anvilKb));
    say(`  fifth ${k + 1} of the run: harness processes peak ${mb(harness)}, largest Anvil ${mb(anvil)}`);
  }
}

/**
 * Cold sandbox start and module run of this tree against the baseline's, on the sandbox runtime:
 * `rounds` rounds of `samples` executions from each tree (scripts/sandboxSamples.ts, one process per
 * round and tree), alternating which goes first, so machine load hits both alike.
 */
function sandboxAgainstBaseline(ref: string, rounds = 6, samples = 10): void {
  const baseline = baselineCheckout(ref);
  say(`\nSandbox start and module run against ${ref} = ${baseline.commit} (cold, sandbox runtime)`);
  const trees = { current: PROJECT_ROOT, baseline: baseline.root };
  const figures = {
    current: { boot: [] as number[], run: [] as number[], cpu: [] as number[] },
    baseline: { boot: [] as number[], run: [] as number[], cpu: [] as number[] },
  };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (["baseline", "current"] as const) : (["current", "baseline"] as const);
    for (const tree of order) {
      const out = runNode([
        "--import",
        "tsx",
        path.join(PROJECT_ROOT, "scripts/sandboxSamples.ts"),
        trees[tree],
        String(samples),
      ]);
      const line = JSON.parse(out.trim().split("\n").at(-1)!) as {
        bootMs: number[];
        runMs: number[];
        childCpuMs: number | null;
      };
      figures[tree].boot.push(...line.bootMs);
      figures[tree].run.push(...line.runMs);
      // NaN (off Linux) arrives as null.
      if (typeof line.childCpuMs === "number") figures[tree].cpu.push(line.childCpuMs);
    }
  }
  const n = rounds * samples;
  const [boot, run] = [median(figures.current.boot), median(figures.current.run)];
  const [baseBoot, baseRun] = [median(figures.baseline.boot), median(figures.baseline.run)];
  const cpu = (tree: "current" | "baseline") =>
    figures[tree].cpu.length > 0 ? `, CPU per child ${ms(median(figures[tree].cpu))}` : "";
  say(`  this tree: sandbox start ${ms(boot)}, module run ${ms(run)} (median of ${n})${cpu("current")}`);
  say(
    `  baseline:  sandbox start ${ms(baseBoot)}, module run ${ms(baseRun)} (median of ${n})${cpu("baseline")}`,
  );
  const cpuRatio =
    figures.current.cpu.length > 0 && figures.baseline.cpu.length > 0
      ? `, CPU per child ${(median(figures.current.cpu) / median(figures.baseline.cpu)).toFixed(3)}×`
      : "";
  say(
    `  this tree / baseline: start ${(boot / baseBoot).toFixed(3)}×, module run ${(run / baseRun).toFixed(3)}×${cpuRatio} (load average ${os.loadavg()[0]!.toFixed(2)}, one call)`,
  );
}

if (sections.has("sandbox")) {
  await benchSandbox(say, Math.min(2, Number(flags.runs))); // src/sandbox/benchSandbox.ts
  if (flags.baseline) sandboxAgainstBaseline(flags.baseline);
}

if (sections.has("viewer")) {
  say("\n## viewer: questbench view over 20 models × 3 epochs × 196 instances (docs/VIEWER.md)");
  const { launchChromium } = await import("../tests/helpers/browser.ts");
  const { writeSyntheticResults } = await import("../src/viewer/syntheticResults.ts");
  const { startViewer } = await import("../src/viewer/server.ts");
  const bank = loadTasks().map((t) => t.spec);
  const tasks = Array.from({ length: 196 }, (_, i) => {
    const t = bank[i % bank.length]!;
    return i < bank.length ? t : { ...t, id: `${t.id}_${Math.floor(i / bank.length)}` };
  });
  const dir = path.join(scratch, "viewer");
  let t0 = performance.now();
  const folders = writeSyntheticResults({ dir, models: 20, epochs: 3, tasks });
  const bytes = folders.reduce((s, f) => s + fs.statSync(path.join(f, "instances.jsonl")).size, 0);
  say(
    `  generated ${folders.length} folders, ${mb(bytes / 1024)} of instances.jsonl, in ${sec(performance.now() - t0)}`,
  );
  t0 = performance.now();
  const viewer = await startViewer({ folders: [dir] });
  say(`  viewer server ready (the folders indexed) in ${ms(performance.now() - t0)}`);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // First paint: navigation start to the leaderboard and grid drawn (two animation frames after the
    // mark, so the browser has painted). Cold: the browser's first load of the page.
    const firstPaint = async () => {
      await page.goto(viewer.url);
      await page.waitForSelector("body[data-ready]");
      return page.evaluate<number>(
        "new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))))",
      );
    };
    const cold = await firstPaint();
    const warm = await firstPaint();
    const rows = await page.evaluate<string>("document.body.dataset.instances");
    say(`  first paint: ${ms(cold)} cold, ${ms(warm)} on reload; ${rows} instances`);
    const filters: [string, string][] = [
      ["#f-split", "composite"],
      ["#f-failure", "failed"],
      ["#f-safety", "flagged"],
      ["#f-split", ""],
      ["#f-failure", ""],
      ["#f-safety", ""],
    ];
    const times: number[] = [];
    for (const [select, value] of filters) {
      t0 = performance.now();
      // The select's change handler redraws the grid; two animation frames later the browser has painted.
      const inPage = await page.evaluate<number>(
        `new Promise((resolve) => {
          const start = performance.now();
          const el = document.querySelector(${JSON.stringify(select)});
          el.value = ${JSON.stringify(value)};
          el.dispatchEvent(new Event("change"));
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)));
        })`,
      );
      times.push(inPage);
      say(
        `  filter ${select}=${value || "all"}: ${ms(inPage)} to redraw (${ms(performance.now() - t0)} round trip)`,
      );
    }
    const worst = Math.max(cold, warm, ...times);
    say(`  worst ${ms(worst)}: ${worst <= 1000 ? "within" : "OVER"} the 1 s target`);
  } finally {
    await browser.close();
    await viewer.close();
  }
}

if (sections.has("cli")) {
  say(
    '\n## cli: start of the installed package\'s questbench, median of 5 (README "Install as a dependency")',
  );
  // The environment of `npm run bench` without its npm_* variables, which would steer the nested npm.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const project = path.join(scratch, "cli-project");
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "package.json"), '{ "name": "bench-cli", "private": true }\n');
  let t0 = performance.now();
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", project], {
    cwd: PROJECT_ROOT,
    env,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .at(-1)!;
  const npmFlags = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
  execFileSync("npm", ["install", ...npmFlags, path.join(project, tarball)], { cwd: project, env });
  say(`  packed (built) and installed in ${sec(performance.now() - t0)}`);
  // The binary npx runs, started with node directly: npx's own start (~0.3 s) is npm's, not ours.
  const bin = path.join(project, "node_modules/evm-questbench/bin/questbench.mjs");
  const commands: [string, string[]][] = [
    ["--help", ["--help"]],
    ["--version", ["--version"]],
    ["usage error: unknown model", ["--model", "nosuch"]],
    ["usage error: bad --split", ["--split", "bogus"]],
    ["usage error: --budget with reference", ["--budget", "1", "--model", "reference"]],
  ];
  let worst = 0;
  for (const [label, args] of commands) {
    const times: number[] = [];
    let code: number | null = null;
    for (let i = 0; i < 5; i++) {
      t0 = performance.now();
      const r = spawnSync(process.execPath, [bin, ...args], { cwd: project, env });
      times.push(performance.now() - t0);
      code = r.status;
    }
    const m = median(times);
    worst = Math.max(worst, m);
    say(`  ${label}: ${ms(m)} (exit ${code})`);
  }
  say(`  slowest median ${ms(worst)}: ${worst <= 300 ? "within" : "OVER"} the 300 ms target`);
}

fs.mkdirSync(path.join(PROJECT_ROOT, ".questbench"), { recursive: true });
const reportPath = path.join(PROJECT_ROOT, ".questbench", "bench.txt");
fs.writeFileSync(reportPath, `${report.join("\n")}\n`);
console.log(`\n(written to ${path.relative(process.cwd(), reportPath)}; run folders in ${scratch})`);
