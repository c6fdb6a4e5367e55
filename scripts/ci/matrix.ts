// The `plan` job of .github/workflows/benchmark.yml: the workflow inputs → the run jobs' matrix.
// Plain TypeScript that Node runs as is (type stripping); the model registry it checks names against
// needs the job's `npm ci` (its did-you-mean).
import { pathToFileURL } from "node:url";
import { resolveModelName } from "../../src/models/registry.ts";

/** One run job: a model, optionally one shard of it, and the names its artifact and cache use. */
export type MatrixEntry = {
  model: string;
  /** `i/n` for `--shard`, or "" for the whole run. */
  shard: string;
  /** Artifact name: `results-<slug>` or `results-<slug>-shard-<i>-of-<n>` (no trailing separator). */
  artifact: string;
  /** The model's part of the response cache's key (actions/cache). */
  cacheKey: string;
  /**
   * The shard's part (`all` or `<i>-of-<n>`): a shard restores its own last cache first (the same
   * instances), then any of the model's.
   */
  cacheShard: string;
  /**
   * The variable of the one API key this job needs (`ANTHROPIC_API_KEY`, …; "" for `reference` and
   * `scripted:`): the run job passes only that secret (README "Run a model matrix on GitHub").
   */
  keyVariable: string;
  /**
   * This job's `--budget`: the model's budget (USD) split evenly over its shards; "" for none, and for
   * the models that call no provider.
   */
  budget: string;
};

/**
 * The variable holding `model`'s API key, "" for the models that call no provider; the name is
 * checked against the model registry (src/models/registry.json) so a typo fails the plan, not a
 * runner per shard.
 * @throws {UnknownModelError} one line, with the closest known name.
 */
export function apiKeyVariable(model: string): string {
  if (model === "reference" || model.startsWith("scripted:")) return "";
  return resolveModelName(model, {}).apiKeyEnv;
}

export const MAX_SHARDS = 32;

/**
 * A model name as a name GitHub accepts for artifacts and cache keys: runs of anything but letters,
 * digits, `.`, `_` and `-` become one `-`, and separators are trimmed from both ends.
 * @example slugify("openrouter/qwen/qwen3-coder") // "openrouter-qwen-qwen3-coder"
 */
export function slugify(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-._]+|[-._]+$/g, "");
}

/**
 * The matrix of run jobs for `models` (comma-, space- or newline-separated; duplicates dropped) split
 * into `shards` parts each.
 * @param options.budget the `budget` input: USD per model over all its shards ("" or absent: none);
 *   each shard gets an equal part, rounded down to 0.0001 USD, so together they never pass it.
 * @param options.keyVariable each model's API key variable (default {@link apiKeyVariable}, which
 *   refuses a name the registry does not know).
 * @throws {Error} one line, for no model, a shard count outside 1–{@link MAX_SHARDS}, a budget that is
 * no number, two models whose names slugify alike (their artifacts would overwrite each other), or an
 * unknown model name.
 */
export function planMatrix(
  models: string,
  shards: string,
  options: { budget?: string | undefined; keyVariable?: (model: string) => string } = {},
): { include: MatrixEntry[] } {
  const names = [...new Set(models.split(/[\s,]+/).filter(Boolean))];
  if (names.length === 0) throw new Error("no model given: set the `models` input, e.g. claude-sonnet,gpt");
  if (!/^\d+$/.test(shards.trim()) || Number(shards) < 1 || Number(shards) > MAX_SHARDS)
    throw new Error(`shards must be an integer from 1 to ${MAX_SHARDS}, got '${shards}'`);
  const n = Number(shards);
  const budget = options.budget?.trim() ?? "";
  if (budget && !/^\d+(\.\d+)?$/.test(budget))
    throw new Error(`budget must be a number of USD ≥ 0 per model, got '${budget}'`);
  const shardBudget = budget ? String(Math.floor((Number(budget) / n) * 10_000) / 10_000) : "";
  const keyVariable = options.keyVariable ?? apiKeyVariable;
  const bySlug = new Map<string, string>();
  const include: MatrixEntry[] = [];
  for (const model of names) {
    const slug = slugify(model);
    if (!slug) throw new Error(`model '${model}' has no letters or digits to name its artifact by`);
    const other = bySlug.get(slug);
    if (other)
      throw new Error(`models '${other}' and '${model}' would share the artifact name results-${slug}`);
    bySlug.set(slug, model);
    let key: string;
    try {
      key = keyVariable(model);
    } catch (error) {
      throw new Error(`model '${model}': ${(error as Error).message}`);
    }
    for (let i = 1; i <= n; i++)
      include.push({
        model,
        shard: n > 1 ? `${i}/${n}` : "",
        artifact: n > 1 ? `results-${slug}-shard-${i}-of-${n}` : `results-${slug}`,
        cacheKey: slug,
        cacheShard: n > 1 ? `${i}-of-${n}` : "all",
        keyVariable: key,
        // reference and scripted: spend nothing, and questbench refuses --budget for a model without a price.
        budget: key ? shardBudget : "",
      });
  }
  return { include };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const matrix = planMatrix(process.env.MODELS ?? "", process.env.SHARDS || "1", {
      budget: process.env.BUDGET,
    });
    console.log(`matrix=${JSON.stringify(matrix)}`);
  } catch (error) {
    console.log(`::error title=benchmark plan::${(error as Error).message}`);
    process.exitCode = 1;
  }
}
