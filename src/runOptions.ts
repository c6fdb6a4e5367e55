import { statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { didYouMean } from "./didYouMean.ts";
import { modelIdentity } from "./models/identity.ts";
import type { ModelOptions } from "./models/settings.ts";
import type { SplitSelection } from "./tasks/types.ts";

/** Run modes (README "Comparing with the paper"): each absent field is the default protocol. */
export type RunModes = {
  /** `--library`: the one library the prompt offers (default: both ethers v6 and viem). */
  library?: "ethers" | "viem" | undefined;
  /** `--env-detail paper`: the terse environment description (default `full`). */
  envDetail?: "paper" | "full" | undefined;
  /** `--naive`: the task's hint appended to the task text. */
  naive?: boolean | undefined;
  /** `--sample N`: a seeded, category-proportional sample of N tasks. */
  sample?: number | undefined;
  /** `--nl-level`: the wording level of the task templates (default `precise`). */
  nlLevel?: "precise" | "moderate" | "vague" | undefined;
  /**
   * `--scoring paper`: each paper-task instance is also scored by the paper's checks and tolerances
   * (results.json `instances[].paperScoring`, `summary.paperScoring`), beside ours, never mixed in.
   */
  scoring?: "paper" | undefined;
  /**
   * `--protocol paper`: composites of the paper's tasks run the paper implementation's protocol (its
   * plan's subtasks drive the rounds, 3 tries per subtask, query / error / submit control JSON,
   * decay 0 when no round counted; src/protocol/paperComposite.ts); absent: ours
   * (src/protocol/composite.ts). README "Comparing with the paper". `--protocol tools`: every task
   * as a tool-using conversation, scored by the same checks and ledger (docs/PROTOCOLS.md).
   */
  protocol?: "paper" | "tools" | undefined;
};

/** Options of one benchmark run (the CLI flags of `npx questbench`, README). */
export type RunOptions = {
  /** `reference`, `scripted:DIR`, or a provider alias. */
  model: string;
  /**
   * `--split`; absent: the paper's 107 tasks (`paper`), or every split when `--tasks` names tasks
   * (see {@link runSplit}).
   */
  split?: SplitSelection | undefined;
  /** Task ids to run (empty: all of the split). */
  tasks: string[];
  seed: number;
  epochs: number;
  /** Anvil instances and attempts in flight. */
  concurrency: number;
  /** Directory for results.json and instances.jsonl; default per model, see {@link outDir}. */
  out?: string | undefined;
  /**
   * Stop starting new instances once this invocation's projected spend (USD) would pass it
   * (provider models with a registry price only).
   */
  budget?: number | undefined;
  /**
   * `--early-stop N`: end the model's run after N schema failures in a row (paper §5.3; the rest of
   * its instances are not started, `notStarted[].reason` `early_stop`). Absent: never.
   */
  earlyStop?: number | undefined;
  /**
   * Run the selected instances again even where `<out>/instances.jsonl` holds a finished result for
   * them (no resume); their new results replace those, and the folder's other instances are kept
   * (docs/RUNNING.md "The output folder"). Without it, a run keeps the finished ones and runs only the rest.
   */
  fresh?: boolean | undefined;
  /** Run an untrusted model even where a sandbox barrier is missing (docs/SECURITY.md); recorded in results.json. */
  unsafeSandbox?: boolean | undefined;
  /** Run only shard `index` of `count` (1-based) of the instance list; merge shards with `questbench report`. */
  shard?: { index: number; count: number } | undefined;
  /** Also write a JUnit XML report here (for CI consumers). */
  junit?: string | undefined;
  /**
   * Fork mode (README "Fork mode"): JSON-RPC URL of the chain to fork (BNB Smart Chain).
   * It may carry credentials; results and messages show it redacted.
   */
  forkUrl?: string | undefined;
  /** Block to fork at; `latest` is resolved once at the start of the run. Default with --fork-url: latest. */
  forkBlock?: number | "latest" | undefined;
  /** The paper implementation's prompt and selection modes (README "Comparing with the paper"); absent: default protocol. */
  modes?: RunModes | undefined;
  /**
   * `--tasks-dir DIR` (repeatable): task packs, folders of tasks in the format of `tasks/` (README
   * "Write your own task"), absolute; their tasks join the package's. Recorded in the manifest.
   */
  tasksDirs?: string[] | undefined;
} & ModelOptions;

export const DEFAULT_OPTIONS: RunOptions = {
  model: "reference",
  tasks: [],
  seed: 1,
  epochs: 1,
  concurrency: 2,
};

/** The split a run without `--split` covers: the paper's 107 tasks (paper §3), the benchmark's 10,700. */
export const DEFAULT_SPLIT: SplitSelection = "paper";

/**
 * The split a run covers: `--split`, else {@link DEFAULT_SPLIT}; with `--tasks` and no `--split`
 * every split (`all`), so `--tasks <hard task id>` runs it without naming its split.
 */
export const runSplit = (o: Pick<RunOptions, "split" | "tasks">): SplitSelection =>
  o.split ?? (o.tasks.length > 0 ? "all" : DEFAULT_SPLIT);

/** A model name as a folder name: `scripted:/a/b` → `scripted_a_b` (also report.html's runs/). */
export const modelSlug = (model: string) => model.replace(/[^A-Za-z0-9._-]+/g, "_");

/**
 * Where a run writes results.json and instances.jsonl: `--out`, else `.questbench/results/<model-slug>/`
 * (relative to the working directory; the slug of the model's identity, src/models/identity.ts), so
 * runs of two models never share a folder and a local endpoint keeps its folder across ports; a
 * `--protocol tools` run's folder ends in `.tools`, beside the same model's code-protocol folder.
 */
export const outDir = (o: Pick<RunOptions, "out" | "model" | "name"> & { modes?: RunModes | undefined }) =>
  o.out ??
  `.questbench/results/${modelSlug(modelIdentity(o.model, o.name))}${o.modes?.protocol === "tools" ? ".tools" : ""}`;

/**
 * Where a watch-mode run (`npx vitest --mode M` in a terminal) writes without `--out`:
 * `.questbench/watch/<model-slug>/`, apart from {@link outDir}'s folder, so experiments while
 * editing tasks or validators never mix into the results of real runs (README "Plain Vitest and
 * watch mode").
 */
export const watchOutDir = (o: Pick<RunOptions, "model" | "name">) =>
  `.questbench/watch/${modelSlug(modelIdentity(o.model, o.name))}`;

const FLAGS = {
  model: { type: "string" },
  split: { type: "string" },
  tasks: { type: "string" },
  seed: { type: "string" },
  epochs: { type: "string" },
  concurrency: { type: "string" },
  out: { type: "string" },
  temperature: { type: "string" },
  "max-tokens": { type: "string" },
  "model-seed": { type: "string" },
  cache: { type: "string" },
  "cache-dir": { type: "string" },
  budget: { type: "string" },
  "early-stop": { type: "string" },
  "max-retries": { type: "string" },
  "request-timeout": { type: "string" },
  "provider-concurrency": { type: "string" },
  fresh: { type: "boolean" },
  "unsafe-sandbox": { type: "boolean" },
  shard: { type: "string" },
  junit: { type: "string" },
  "fork-url": { type: "string" },
  "fork-block": { type: "string" },
  library: { type: "string" },
  "env-detail": { type: "string" },
  naive: { type: "boolean" },
  sample: { type: "string" },
  "nl-level": { type: "string" },
  scoring: { type: "string" },
  protocol: { type: "string" },
  "tasks-dir": { type: "string", multiple: true },
  name: { type: "string" },
  "price-in": { type: "string" },
  "price-out": { type: "string" },
} as const;

/** The run flags' names without `--` (`model`, `max-tokens`, …), as `QUESTBENCH_*` variables name them. */
export const RUN_FLAGS = Object.keys(FLAGS) as readonly (keyof typeof FLAGS)[];

type FlagValues = Partial<
  Record<Exclude<keyof typeof FLAGS, "fresh" | "unsafe-sandbox" | "naive" | "tasks-dir">, string>
> & {
  /** Flags: one value per `--tasks-dir`; the variable: folders separated as in PATH. */
  "tasks-dir"?: string[] | string;
  fresh?: boolean;
  "unsafe-sandbox"?: boolean;
  naive?: boolean;
};

function oneOf<T extends string>(value: string, flag: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(
      `--${flag} must be ${allowed.join(", ").replace(/, ([^,]*)$/, " or $1")}, got '${value}'${didYouMean(value, [...allowed])}`,
    );
  return value as T;
}

/** Mode flags → `modes`; a mode at its default value is not recorded (the default protocol has no modes). */
function applyModeFlags(o: RunOptions, values: FlagValues): void {
  const modes: RunModes = { ...o.modes };
  if (values.library !== undefined)
    modes.library = oneOf(values.library, "library", ["ethers", "viem"] as const);
  if (values["env-detail"] !== undefined) {
    const v = oneOf(values["env-detail"], "env-detail", ["paper", "full"] as const);
    modes.envDetail = v === "full" ? undefined : v;
  }
  if (values.naive !== undefined) modes.naive = values.naive || undefined;
  if (values.sample !== undefined) modes.sample = positiveInt(values.sample, "sample");
  if (values["nl-level"] !== undefined) {
    const v = oneOf(values["nl-level"], "nl-level", ["precise", "moderate", "vague"] as const);
    modes.nlLevel = v === "precise" ? undefined : v;
  }
  // README "Comparing with the paper": the paper's scoring beside ours; `ours` is the default.
  if (values.scoring !== undefined)
    modes.scoring =
      oneOf(values.scoring, "scoring", ["paper", "ours"] as const) === "paper" ? "paper" : undefined;
  // The paper implementation's composite protocol; `ours` is the default.
  if (values.protocol !== undefined)
    modes.protocol = ({ paper: "paper", tools: "tools", ours: undefined } as const)[
      oneOf(values.protocol, "protocol", ["paper", "ours", "tools"] as const)
    ];
  const set = Object.fromEntries(Object.entries(modes).filter(([, v]) => v !== undefined)) as RunModes;
  o.modes = Object.keys(set).length > 0 ? set : undefined;
}

/** `--price-in`/`--price-out` → `price` (USD per million tokens); one without the other is refused. */
function applyPriceFlags(o: RunOptions, values: FlagValues): void {
  const input = values["price-in"];
  const output = values["price-out"];
  if (input === undefined && output === undefined) return;
  if (input === undefined || output === undefined)
    throw new UsageError(`--price-in and --price-out go together (USD per million input / output tokens)`);
  o.price = { input: nonNegativeNumber(input, "price-in"), output: nonNegativeNumber(output, "price-out") };
}

export class UsageError extends Error {
  override name = "UsageError";
}

function positiveInt(value: string, flag: string, min = 1): number {
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UsageError(`--${flag} must be an integer ≥ ${min}, got '${value}'`);
  return Number(value);
}

/** Applies flag values (strings, as typed) on top of `base`, validating each. */
function nonNegativeNumber(value: string, flag: string): number {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new UsageError(`--${flag} must be a number ≥ 0, got '${value}'`);
  return Number(value);
}

export function applyFlags(base: RunOptions, values: FlagValues): RunOptions {
  const o = { ...base };
  if (values.model !== undefined) o.model = values.model;
  if (values.split !== undefined)
    o.split = oneOf(values.split, "split", ["atomic", "composite", "paper", "hard", "all"] as const);
  if (values.tasks !== undefined)
    o.tasks = values.tasks
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
  if (values.seed !== undefined) o.seed = positiveInt(values.seed, "seed", 0);
  if (values.epochs !== undefined) o.epochs = positiveInt(values.epochs, "epochs");
  if (values.concurrency !== undefined) o.concurrency = positiveInt(values.concurrency, "concurrency");
  if (values.out !== undefined) o.out = values.out;
  if (values.temperature !== undefined) {
    o.temperature = nonNegativeNumber(values.temperature, "temperature");
    if (o.temperature > 2) throw new UsageError(`--temperature must be 0–2, got '${values.temperature}'`);
  }
  if (values["max-tokens"] !== undefined) o.maxTokens = positiveInt(values["max-tokens"], "max-tokens");
  if (values["model-seed"] !== undefined) o.modelSeed = positiveInt(values["model-seed"], "model-seed", 0);
  if (values.cache !== undefined) {
    if (values.cache !== "on" && values.cache !== "off" && values.cache !== "replay")
      throw new UsageError(
        `--cache must be on, off or replay, got '${values.cache}'${didYouMean(values.cache, ["on", "off", "replay"])}`,
      );
    o.cache = values.cache;
  }
  if (values["cache-dir"] !== undefined) o.cacheDir = values["cache-dir"];
  if (values.budget !== undefined) o.budget = nonNegativeNumber(values.budget, "budget");
  if (values["early-stop"] !== undefined) o.earlyStop = positiveInt(values["early-stop"], "early-stop");
  if (values["max-retries"] !== undefined)
    o.maxRetries = positiveInt(values["max-retries"], "max-retries", 0);
  if (values["request-timeout"] !== undefined)
    o.requestTimeout = positiveInt(values["request-timeout"], "request-timeout");
  if (values["provider-concurrency"] !== undefined)
    o.providerConcurrency = positiveInt(values["provider-concurrency"], "provider-concurrency");
  if (values.fresh !== undefined) o.fresh = values.fresh;
  if (values["unsafe-sandbox"] !== undefined) o.unsafeSandbox = values["unsafe-sandbox"];
  if (values.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw new UsageError(`--shard must be i/n with 1 ≤ i ≤ n, got '${values.shard}'`);
    o.shard = { index: Number(m[1]), count: Number(m[2]) };
  }
  if (values.junit !== undefined) o.junit = values.junit;
  if (values["tasks-dir"] !== undefined) o.tasksDirs = tasksDirs(values["tasks-dir"]);
  if (values.name !== undefined) {
    if (!values.name.trim()) throw new UsageError("--name must not be empty");
    o.name = values.name.trim();
  }
  applyPriceFlags(o, values);
  applyModeFlags(o, values);
  if (values["fork-url"] !== undefined) {
    if (!/^https?:\/\/./.test(values["fork-url"])) throw new UsageError("--fork-url must be an http(s) URL");
    o.forkUrl = values["fork-url"];
  }
  if (values["fork-block"] !== undefined)
    o.forkBlock =
      values["fork-block"] === "latest" ? "latest" : positiveInt(values["fork-block"], "fork-block", 0);
  if (o.forkBlock !== undefined && o.forkUrl === undefined)
    throw new UsageError("--fork-block needs --fork-url");
  if (o.forkUrl !== undefined && o.forkBlock === undefined) o.forkBlock = "latest";
  return o;
}

/** `--tasks-dir` values as absolute folders (relative ones from the working directory), each checked. */
function tasksDirs(value: string[] | string): string[] {
  const dirs = typeof value === "string" ? value.split(path.delimiter).filter(Boolean) : value;
  return dirs.map((dir) => {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(`--tasks-dir '${dir}' is not a folder`);
    return path.resolve(dir);
  });
}

/** Parses run flags (`--model x` or `--model=x`); unknown flags are a {@link UsageError}. */
export function parseRunFlags(argv: string[], base: RunOptions = DEFAULT_OPTIONS): RunOptions {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof FLAGS; strict: true; allowPositionals: false }>>;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false });
  } catch (error) {
    throw parseArgsUsageError(error, Object.keys(FLAGS));
  }
  return applyFlags(base, parsed.values);
}

/**
 * node:util parseArgs' error as a one-line {@link UsageError}: an unknown flag with the closest known
 * one, a stray argument, or a flag missing its value, without Node's multi-sentence advice.
 */
export function parseArgsUsageError(error: unknown, flags: readonly string[]): UsageError {
  const e = error as { code?: string; message?: string };
  const quoted = /'([^']+)'/.exec(e.message ?? "")?.[1] ?? "";
  const known = flags.map((f) => `--${f}`);
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const flag = quoted.split("=")[0]!;
    return new UsageError(`unknown flag '${flag}'${didYouMean(flag, [...known, "--help", "--version"])}`);
  }
  if (e.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
    return new UsageError(
      `unexpected argument '${quoted}'${didYouMean(quoted, ["report", "validate", "list", "world"])}`,
    );
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const flag = /--[\w-]+/.exec(e.message ?? "")?.[0] ?? "";
    return new UsageError(
      /does not take/.test(e.message ?? "") ? `${flag} takes no value` : `${flag} needs a value`,
    );
  }
  return new UsageError((e.message ?? String(error)).split("\n")[0]!);
}

/**
 * `QUESTBENCH_<FLAG>` (upper case, `-` → `_`) for every run flag: `QUESTBENCH_TASKS=a,b`,
 * `QUESTBENCH_SEED=2`, `QUESTBENCH_FRESH=1`, … Flags on the command line win over variables.
 * `QUESTBENCH_CACHE_DIR` is also read by the model layer as `--cache-dir`'s default.
 * @throws {UsageError} naming the variable when a value is invalid.
 */
export function optionsFromVariables(
  env: NodeJS.ProcessEnv = process.env,
  base = DEFAULT_OPTIONS,
): RunOptions {
  checkVariableNames(env);
  const values: Record<string, string | boolean> = {};
  for (const [flag, spec] of Object.entries(FLAGS)) {
    const value = env[envName(flag)];
    if (value === undefined || value === "") continue;
    values[flag] = spec.type === "boolean" ? !/^(0|false|no|off)$/i.test(value) : value;
  }
  try {
    return applyFlags(base, values as FlagValues);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(error.message.replace(/--([a-z-]+)/, (_, flag: string) => envName(flag)));
  }
}

/** The variable of a run flag: `max-tokens` → `QUESTBENCH_MAX_TOKENS`. */
export const envName = (flag: string) => `QUESTBENCH_${flag.toUpperCase().replace(/-/g, "_")}`;

/**
 * The `QUESTBENCH_*` variables that are not run flags: the sandbox's Node
 * (src/sandbox/sandboxRuntime.ts), the phase log of `npm run bench` (src/run/phases.ts) and the unit
 * suite's fuzz seed (tests/helpers/unitEnvironment.ts).
 */
export const OTHER_VARIABLES = [
  "QUESTBENCH_SANDBOX_NODE",
  "QUESTBENCH_PHASES",
  "QUESTBENCH_FUZZ_SEED",
] as const;

/**
 * Refuses a set `QUESTBENCH_*` variable that nothing reads (a misspelled `QUESTBENCH_TASK=…` would
 * otherwise run all 107 tasks), naming the closest known one. Empty ones are unset ones.
 * @throws {UsageError} `unknown variable QUESTBENCH_TASK; did you mean 'QUESTBENCH_TASKS'?`
 */
function checkVariableNames(env: NodeJS.ProcessEnv): void {
  const prefix = "QUESTBENCH_";
  const known = [...Object.keys(FLAGS).map(envName), ...OTHER_VARIABLES];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(prefix) || !value || known.includes(name)) continue;
    // Compared without the shared prefix, which would make every name look close to every other.
    const suffixes = known.map((k) => k.slice(prefix.length));
    const guess = didYouMean(name.slice(prefix.length), suffixes).replace("'", `'${prefix}`);
    throw new UsageError(
      `unknown variable ${name}${guess || "; a run flag's variable is QUESTBENCH_<FLAG> (--max-tokens: QUESTBENCH_MAX_TOKENS)"}`,
    );
  }
}

/**
 * The options of a run started as plain Vitest (`npx vitest --project benchmark`): the `QUESTBENCH_*`
 * variables, then Vitest's `--mode <model>` (any mode but Vitest's default `test`), then flags after
 * `--` on Vitest's command line (`npx vitest -- --model=x`), each over `base` (the defaults, or a
 * dependent project's preset options). The CLI does not use this: it provides its parsed options to
 * Vitest directly.
 */
export function optionsFromEnvironment(
  argv = process.argv,
  env = process.env,
  mode?: string,
  base: RunOptions = DEFAULT_OPTIONS,
): RunOptions {
  let o = optionsFromVariables(env, base);
  if (mode && mode !== "test") o = { ...o, model: mode };
  const dashDash = argv.indexOf("--");
  if (dashDash >= 0) o = parseRunFlags(argv.slice(dashDash + 1), o);
  return o;
}
