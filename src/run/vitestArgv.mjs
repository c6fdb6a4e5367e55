// A questbench run flag typed before `--` on a plain Vitest command line (`npx vitest --model=x`):
// Vitest's parser (cac) throws on any flag it does not know before it loads vitest.config.ts, so no
// project code could answer with more than a raw `CACError` stack. The repository's .npmrc has npm
// load this file into every `npx vitest` / `npm test` process (Node's `--import`), where it answers in
// one line, with the right form, and exit code 2 (README "Plain Vitest and watch mode").
//
// Plain JavaScript with no imports: it runs before any TypeScript loader, in every Vitest start.
// Nothing runs on import: .npmrc calls exitOnMisplacedRunFlag.

/**
 * The run flags of src/runOptions.ts (`FLAGS`) that Vitest does not take itself; `--cache` and
 * `--shard` are Vitest's own, and a questbench value of theirs goes after `--` too.
 * tests/vitest.plain.test.ts checks the list against `FLAGS`.
 */
export const QUESTBENCH_ONLY_FLAGS = [
  "model",
  "split",
  "tasks",
  "seed",
  "epochs",
  "concurrency",
  "out",
  "temperature",
  "max-tokens",
  "model-seed",
  "cache-dir",
  "budget",
  "early-stop",
  "max-retries",
  "request-timeout",
  "provider-concurrency",
  "fresh",
  "unsafe-sandbox",
  "junit",
  "fork-url",
  "fork-block",
  "library",
  "env-detail",
  "naive",
  "sample",
  "nl-level",
  "scoring",
  "protocol",
  "tasks-dir",
  "name",
  "price-in",
  "price-out",
];

/**
 * The one-line answer to a Vitest command line that has a questbench run flag before `--`, or
 * undefined when it has none.
 * @param argv Vitest's arguments (`process.argv.slice(2)`).
 */
export function misplacedRunFlag(argv) {
  for (const arg of argv) {
    if (arg === "--") return undefined;
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m || !QUESTBENCH_ONLY_FLAGS.includes(m[1])) continue;
    const [, flag, value = "x"] = m;
    const variable = `QUESTBENCH_${flag.toUpperCase().replace(/-/g, "_")}`;
    const alternative = flag === "model" ? `--mode ${value}` : `${variable}=${value}`;
    return `questbench: --${flag} is a questbench flag, not Vitest's: put it after -- (npx vitest -- --${flag}=${value}) or use ${alternative} (see README "Plain Vitest and watch mode")`;
  }
  return undefined;
}

/**
 * Ends the process with the one-line answer and exit code 2 when `argv` has a questbench run flag
 * before `--` (see {@link misplacedRunFlag}); does nothing otherwise.
 * @param argv Vitest's arguments (`process.argv.slice(2)`).
 */
export function exitOnMisplacedRunFlag(argv) {
  const message = misplacedRunFlag(argv);
  if (!message) return;
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
