// The `plan` job of .github/workflows/benchmark.yml: the workflow inputs → the run jobs' matrix.
// Plain TypeScript that Node runs as is (type stripping), so the job needs no npm install.
import { pathToFileURL } from "node:url";

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
};

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
 * @throws {Error} one line, for no model, a shard count outside 1–{@link MAX_SHARDS}, or two models
 * whose names slugify alike (their artifacts would overwrite each other).
 */
export function planMatrix(models: string, shards: string): { include: MatrixEntry[] } {
  const names = [...new Set(models.split(/[\s,]+/).filter(Boolean))];
  if (names.length === 0) throw new Error("no model given: set the `models` input, e.g. claude-sonnet,gpt");
  if (!/^\d+$/.test(shards.trim()) || Number(shards) < 1 || Number(shards) > MAX_SHARDS)
    throw new Error(`shards must be an integer from 1 to ${MAX_SHARDS}, got '${shards}'`);
  const n = Number(shards);
  const bySlug = new Map<string, string>();
  const include: MatrixEntry[] = [];
  for (const model of names) {
    const slug = slugify(model);
    if (!slug) throw new Error(`model '${model}' has no letters or digits to name its artifact by`);
    const other = bySlug.get(slug);
    if (other)
      throw new Error(`models '${other}' and '${model}' would share the artifact name results-${slug}`);
    bySlug.set(slug, model);
    for (let i = 1; i <= n; i++)
      include.push({
        model,
        shard: n > 1 ? `${i}/${n}` : "",
        artifact: n > 1 ? `results-${slug}-shard-${i}-of-${n}` : `results-${slug}`,
        cacheKey: slug,
        cacheShard: n > 1 ? `${i}-of-${n}` : "all",
      });
  }
  return { include };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const matrix = planMatrix(process.env.MODELS ?? "", process.env.SHARDS || "1");
    console.log(`matrix=${JSON.stringify(matrix)}`);
  } catch (error) {
    console.log(`::error title=benchmark plan::${(error as Error).message}`);
    process.exitCode = 1;
  }
}
