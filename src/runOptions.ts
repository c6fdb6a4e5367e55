import { parseArgs } from "node:util";

/** Options of one benchmark run (the CLI flags of `npx questbench`, README). */
export type RunOptions = {
  /** `reference`, `scripted:DIR`, or a provider alias. */
  model: string;
  split: "atomic" | "composite" | "all";
  /** Task ids to run (empty: all of the split). */
  tasks: string[];
  seed: number;
  epochs: number;
  /** Anvil instances and attempts in flight. */
  concurrency: number;
  /** Directory for results.json and instances.jsonl. */
  out: string;
};

export const DEFAULT_OPTIONS: RunOptions = {
  model: "reference",
  split: "all",
  tasks: [],
  seed: 1,
  epochs: 1,
  concurrency: 2,
  out: ".questbench/results",
};

const FLAGS = {
  model: { type: "string" },
  split: { type: "string" },
  tasks: { type: "string" },
  seed: { type: "string" },
  epochs: { type: "string" },
  concurrency: { type: "string" },
  out: { type: "string" },
} as const;

export class UsageError extends Error {
  override name = "UsageError";
}

function positiveInt(value: string, flag: string, min = 1): number {
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UsageError(`--${flag} must be an integer ≥ ${min}, got '${value}'`);
  return Number(value);
}

/** Applies flag values (strings, as typed) on top of `base`, validating each. */
export function applyFlags(
  base: RunOptions,
  values: Partial<Record<keyof typeof FLAGS, string>>,
): RunOptions {
  const o = { ...base };
  if (values.model !== undefined) o.model = values.model;
  if (values.split !== undefined) {
    if (values.split !== "atomic" && values.split !== "composite" && values.split !== "all")
      throw new UsageError(`--split must be atomic, composite or all, got '${values.split}'`);
    o.split = values.split;
  }
  if (values.tasks !== undefined)
    o.tasks = values.tasks
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
  if (values.seed !== undefined) o.seed = positiveInt(values.seed, "seed", 0);
  if (values.epochs !== undefined) o.epochs = positiveInt(values.epochs, "epochs");
  if (values.concurrency !== undefined) o.concurrency = positiveInt(values.concurrency, "concurrency");
  if (values.out !== undefined) o.out = values.out;
  return o;
}

/** Parses run flags (`--model x` or `--model=x`); unknown flags are a {@link UsageError}. */
export function parseRunFlags(argv: string[], base: RunOptions = DEFAULT_OPTIONS): RunOptions {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof FLAGS; strict: true; allowPositionals: false }>>;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return applyFlags(base, parsed.values);
}

/**
 * The options of a run started through Vitest: `QUESTBENCH_OPTIONS` (JSON, set by the CLI), then
 * `QUESTBENCH_MODEL`, then flags after `--` on Vitest's command line (`npx vitest -- --model=x`).
 */
export function optionsFromEnvironment(argv = process.argv, env = process.env): RunOptions {
  let o: RunOptions = { ...DEFAULT_OPTIONS };
  if (env.QUESTBENCH_OPTIONS) o = { ...o, ...(JSON.parse(env.QUESTBENCH_OPTIONS) as Partial<RunOptions>) };
  if (env.QUESTBENCH_MODEL) o.model = env.QUESTBENCH_MODEL;
  const dashDash = argv.indexOf("--");
  if (dashDash >= 0) o = parseRunFlags(argv.slice(dashDash + 1), o);
  return o;
}
