import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { BaseError, UnknownModelError } from "./errors.ts";
import { phase } from "./run/phases.ts";
import {
  DEFAULT_OPTIONS,
  DEFAULT_SPLIT,
  optionsFromVariables,
  outDir,
  parseArgsUsageError,
  parseRunFlags,
  UsageError,
} from "./runOptions.ts";

const HELP = `Usage:
  questbench [--model M] [--split atomic|composite|paper|hard|all] [--tasks id,id] [--seed N]
             [--epochs K] [--concurrency C] [--out DIR] [--fresh]
             [--temperature T] [--max-tokens N] [--model-seed N] [--max-retries N] [--request-timeout S]
             [--provider-concurrency N] [--cache on|off|replay] [--cache-dir DIR] [--budget USD]
             [--early-stop N]
             [--price-in USD --price-out USD] [--name NAME]
             [--shard i/n] [--junit FILE] [--fork-url URL [--fork-block N|latest]] [--unsafe-sandbox]
             [--library ethers|viem] [--env-detail paper|full] [--naive] [--sample N]
             [--nl-level precise|moderate|vague] [--scoring paper|ours] [--protocol paper|ours]
             [--tasks-dir DIR]…
      Run the benchmark (default: --model ${DEFAULT_OPTIONS.model} --split ${DEFAULT_SPLIT} --seed 1 --concurrency 2
      --out .questbench/results/<model>). --split paper is the paper's 107 tasks (max 10,700); hard is
      the hard split, all both (the hard score printed apart, never added to the paper total); with
      --tasks and no --split, every split. A run into a folder adds to its results: results.json covers
      every instance there, and a finished one is not run again (--fresh runs the selected ones again,
      replacing only their results); a folder of another model or other settings is refused. Models: reference, scripted:DIR, a registry name or alias
      (claude-sonnet, gpt, gemini-pro, deepseek, … see src/models/registry.json), openrouter/<id>, <provider>:<model-id>,
      openai-compatible:<baseURL>#<model> (named by its host without the port, or --name). Provider
      models: temperature 0.7, 16384 max tokens, key from the provider's variable (ANTHROPIC_API_KEY,
      OPENAI_API_KEY, OPENROUTER_API_KEY, …), responses cached in --cache-dir (else
      QUESTBENCH_CACHE_DIR, else .questbench/cache); --budget stops starting new instances once the
      projected spend would pass USD, at the registry's price or --price-in/--price-out (USD per
      million tokens). --early-stop N ends the run after N schema failures in a row, as the paper's
      §5.3 did (the rest not started). --shard i/n runs the i-th of n disjoint parts of the
      instance list (merge them with questbench report); --junit also writes a JUnit XML report.
      --fork-url runs on a fork of BNB Smart Chain at --fork-block (default latest, resolved once and
      recorded): the agent's assets are provisioned by storage writes, the auxiliary contracts and the
      hard world deployed and built, and a task whose world cannot be provisioned is skipped, named
      before the run (README "Fork mode").
      The paper implementation's modes (README "Comparing with the paper"; recorded in the manifest):
      --library offers one library with its conventions, --env-detail paper lists addresses without
      descriptions (own contracts keep theirs), --naive appends the task's hint, --sample N runs a
      seeded category-proportional sample of N tasks, --nl-level words every request precisely (the
      default), moderately or vaguely, with the same values;
      --scoring paper also scores each paper task the paper's way, reported beside ours, never mixed in;
      --protocol paper runs the paper's composites under the paper implementation's protocol (its plan's
      subtasks drive the rounds, 3 tries each, query/error/submit control JSON, decay 0 at no round).
      --unsafe-sandbox runs an untrusted model (provider or scripted:) on a set-up missing a sandbox
      barrier, which is otherwise refused; results.json and the leaderboard mark such a run.
  questbench report <results.json or dirs…> --out DIR [--force]
      Merge runs of several models and shards into DIR/leaderboard.md (the paper's Tables 1, 2, 8, 9,
      10), DIR/leaderboard.tex (booktabs), DIR/report.html, DIR/figures/*.svg and *.png (300 dpi) and one merged
      results.json per model (DIR/runs/<model>/). Refuses runs whose manifests disagree (world, fork
      block, task versions, modes) or models run on different task sets unless --force.
  questbench validate DIR [--seeds 1,2] [--concurrency C]
      Check a task pack (README "Write your own task"): each task.json (schema, placeholders, check
      arguments; errors as file:line:column), its id against the package's, then on real chains that
      its gold answer scores 100 on each seed and each case scores as its front matter says. Exit 1
      on any problem. Run its tasks with --tasks-dir DIR (repeatable; QUESTBENCH_TASKS_DIR).
  questbench list [--split S] [--tasks id,id] [--tasks-dir DIR]…
      Print the tasks a run with the same flags would select, one a line: id, split, set (paper, hard, or
      custom for a task pack's), category, K_opt (a composite's optimal rounds) and difficulty.
  questbench world [--port P]
      Serve the local BSC-like world on 127.0.0.1 and print its URL and address book.
  questbench --help | --version
Exit codes: 0 the run finished (whatever the scores; reference: all 100), 1 a run or harness
failure (provider or infrastructure error, run stopped, missing key, retired model), 2 a usage error
(a bad flag, an --out that cannot be written or holds another run's results).`;

/**
 * A typed harness error (src/errors.ts): one line (and its details) for the user, no stack. Also one
 * thrown by the global setup, which Vitest loads through its own module runner: there the classes are
 * other instances of the same module, so `instanceof` alone misses them.
 */
const isHarnessError = (error: unknown): error is BaseError =>
  error instanceof BaseError ||
  (error instanceof Error && typeof (error as Partial<BaseError>).shortMessage === "string");

/** The package's version (package.json), for `--version`. */
export function packageVersion(): string {
  return (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
  ).version;
}

/**
 * The command line (`npx questbench …`). Errors set `process.exitCode`; nothing here calls
 * `process.exit`, so Vitest and Anvil shut down cleanly.
 */
export async function runCli(argv: string[]): Promise<void> {
  phase("process start", performance.timeOrigin);
  phase("cli: node + vite runner + cli loaded");
  process.once("exit", () => phase("process exit"));
  try {
    if (argv.includes("--help") || argv.includes("-h")) {
      console.log(HELP);
      return;
    }
    if (argv.includes("--version")) {
      console.log(packageVersion());
      return;
    }
    if (argv[0] === "world") return await serve(argv.slice(1));
    if (argv[0] === "report") return await report(argv.slice(1));
    if (argv[0] === "list") return (await import("./run/listTasks.ts")).listCommand(argv.slice(1));
    if (argv[0] === "validate")
      return await (await import("./run/validatePack.ts")).validateCommand(argv.slice(1));
    const options = parseRunFlags(argv, optionsFromVariables());
    // Everything that can refuse the run is checked before Vitest and Anvil start (src/run/preflight.ts):
    // --out, the model and its key, the folder's earlier results, the task ids, scripted answers.
    // --out first, before the rest is even loaded: a mistyped --out is refused at once.
    const { ensureOutDir } = await import("./run/outDir.ts");
    ensureOutDir(outDir(options), { keep: false });
    phase("cli: --out checked");
    const { runBenchmark } = await import("./runBenchmark.ts");
    const { exitCode, results } = await runBenchmark(options, {
      warn: (warning) => console.warn(`questbench: warning: ${warning}`),
    });
    phase("cli: vitest closed");
    if (!results) console.error("questbench: no instance finished; see the errors above.");
    // The model's breaker stopped the run (src/models/breaker.ts): say so once, last.
    const stopped = results?.instances.find((i) => i.failure?.code === "run_stopped");
    if (stopped) console.error(`questbench: ${stopped.failure!.reason}`);
    process.exitCode = exitCode || (results ? 0 : 1);
  } catch (error) {
    if (error instanceof UsageError || error instanceof UnknownModelError) {
      console.error(`questbench: ${error.message} (see questbench --help)`);
      process.exitCode = 2;
    } else if (isHarnessError(error)) {
      console.error(`questbench: ${error.message}`);
      process.exitCode = 1;
    } else throw error;
  }
}

async function report(argv: string[]): Promise<void> {
  let parsed: { values: { out?: string; force?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      options: { out: { type: "string" }, force: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw parseArgsUsageError(error, ["out", "force"]);
  }
  if (parsed.positionals.length === 0) throw new UsageError("report needs results.json files or directories");
  if (!parsed.values.out) throw new UsageError("report needs --out DIR");
  const { writeReport } = await import("./reporting/report.ts");
  const { rows, warnings } = await writeReport({
    inputs: parsed.positionals,
    out: parsed.values.out,
    force: parsed.values.force,
  });
  for (const w of warnings) console.warn(`questbench: warning: ${w}`);
  for (const r of rows)
    console.log(
      `${r.model}: Atom ${r.atomic}, Comp ${r.composite}, Total ${r.total}, Avg ${r.avg107} (Total / 107), Avg (run) ${r.avg} (95 % CI between tasks ${r.avgCi95 ? `[${r.avgCi95[0]}, ${r.avgCi95[1]}]` : "—"}${r.rerunSd === null ? "" : `, re-run SD ${r.rerunSd}`}), tasks ${r.atomicTasks + r.compositeTasks}/107${r.hardTasks ? `; Hard ${r.hard} (${r.hardTasks} hard tasks)` : ""}${r.customTasks ? `; Custom ${r.custom} (${r.customTasks} task-pack tasks)` : ""}`,
    );
  console.log(
    `Wrote ${parsed.values.out}/leaderboard.md, leaderboard.tex, report.html and figures/*.svg, *.png`,
  );
}

async function serve(argv: string[]): Promise<void> {
  let port = 0;
  try {
    const { values } = parseArgs({ args: argv, options: { port: { type: "string" } }, strict: true });
    if (values.port !== undefined) {
      if (!/^\d+$/.test(values.port) || Number(values.port) > 65535)
        throw new UsageError(`--port must be 0–65535, got '${values.port}'`);
      port = Number(values.port);
    }
  } catch (error) {
    throw error instanceof UsageError ? error : parseArgsUsageError(error, ["port"]);
  }
  const { serveWorld, formatAddressBook } = await import("./world/serve.ts");
  const served = await serveWorld({ port });
  console.log(`EVM-QuestBench world (chain id ${served.world.chainId}) listening on ${served.url}\n`);
  console.log(formatAddressBook(served.world));
  console.log("\nPress Ctrl-C to stop.");
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await served.stop();
}
