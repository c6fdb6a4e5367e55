import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { HELP } from "./cliHelp.mjs";
import { BaseError, UnknownModelError } from "./errors.ts";
import { phase } from "./run/phases.ts";
import {
  optionsFromVariables,
  outDir,
  parseArgsUsageError,
  parseRunFlags,
  UsageError,
} from "./runOptions.ts";

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
    if (argv[0] === "view") return await (await import("./viewer/view.ts")).viewCommand(argv.slice(1));
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
