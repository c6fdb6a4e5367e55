import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { BaseError, TaskSpecError } from "../errors.ts";
import { caseModel } from "../models/caseModel.ts";
import { resolveModel } from "../models/resolve.ts";
import type { ModelClient } from "../models/types.ts";
import { runAttempt } from "../protocol/attempt.ts";
import type { InstanceResult } from "../results/types.ts";
import { parseArgsUsageError, UsageError } from "../runOptions.ts";
import { requireSandboxBarriers } from "../sandbox/requireBarriers.ts";
import { readCases, type TaskCase } from "../tasks/cases.ts";
import { PROJECT_ROOT, type TaskEntry, taskIndex } from "../tasks/files.ts";
import { instantiate } from "../tasks/instantiate.ts";
import { type LoadedTask, loadTaskFile } from "../tasks/load.ts";
import { createAnvilPool } from "../world/pool.ts";
import { loadWorld } from "../world/world.ts";

export type ValidatePackParameters = {
  /** The task pack: a folder of tasks in the format of `tasks/` (README "Write your own task"). */
  dir: string;
  /** Run seeds the gold answer must score 100 on (and each correct case); default 1 and 2. */
  seeds?: readonly number[] | undefined;
  /** Anvil instances (attempts in flight); default 2. */
  concurrency?: number | undefined;
  /** Called as each task is done, with its problems (empty: it passed), for progress output. */
  onTask?: ((id: string, problems: readonly string[]) => void) | undefined;
  /** Run the pack's answers on a sandbox missing a barrier (docs/SECURITY.md, `--unsafe-sandbox`). */
  unsafeSandbox?: boolean | undefined;
};

export type ValidatePackReturnType = {
  /** The pack's task ids. */
  tasks: string[];
  /** Cases checked, over all tasks. */
  cases: number;
  /** One line each, `file[:line:column]: problem`; empty when the pack is valid. */
  problems: string[];
};

/**
 * Checks a task pack the way the repository's own test suite checks `tasks/` (tasks/README.md):
 * each task.json against the schema and its meaning (placeholders, expressions, check arguments,
 * weights; load.ts), the ids against the package's and each other, each composite's workflow ids,
 * then, on real Anvil chains through the sandbox, that the gold answer scores 100 on every seed and
 * each case (`cases/`) scores as its front matter says (correct styles: 100 on every seed; wrong
 * answers: below their bound on the first seed). A pack's answers are untrusted code: they run only
 * with the sandbox's barriers, as a `scripted:` model's would.
 * @throws {UsageError} when `dir` is not a folder or holds no task.
 */
export async function validatePack(p: ValidatePackParameters): Promise<ValidatePackReturnType> {
  const seeds = p.seeds ?? [1, 2];
  if (!statSync(p.dir, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`validate: '${p.dir}' is not a folder`);
  const builtIn = taskIndex();
  let packed: TaskEntry[];
  // The pack alone (beside an empty folder for the package's tasks), so that a task whose id clashes
  // with a built-in one is one problem of its own and the pack's other tasks are still checked.
  const nothing = mkdtempSync(path.join(tmpdir(), "qb-validate-"));
  try {
    packed = taskIndex([p.dir], nothing).filter((e) => e.pack !== undefined);
  } catch (error) {
    if (error instanceof TaskSpecError) return { tasks: [], cases: 0, problems: [error.shortMessage] };
    throw error;
  } finally {
    rmSync(nothing, { recursive: true, force: true });
  }
  if (packed.length === 0)
    throw new UsageError(`validate: no task below '${p.dir}' (a task is a folder holding task.json)`);
  const builtInFile = new Map(builtIn.map((e) => [e.id, e.file]));
  const problems = new Map<string, string[]>(packed.map((e) => [e.id, []]));
  for (const e of packed) {
    const other = builtInFile.get(e.id);
    if (other === undefined) continue;
    const own = [
      `${e.file}: id: '${e.id}' is the id of a built-in task (${other}): a pack adds tasks, it cannot replace one; rename the task's folder and its id`,
    ];
    problems.set(e.id, own);
    p.onTask?.(e.id, own);
  }
  const entries = packed.filter((e) => !builtInFile.has(e.id));
  const index = [...builtIn, ...entries];
  const loaded: { task: LoadedTask; cases: TaskCase[] }[] = [];
  // A workflow names atomic tasks: the package's or the pack's, paper or hard.
  const atomicIds = new Set(index.filter((e) => e.split === "atomic").map((e) => e.id));
  for (const e of entries) {
    const own = problems.get(e.id)!;
    try {
      const task = loadTaskFile(e.file, e.pack);
      for (const [i, id] of (task.spec.workflow ?? []).entries())
        if (!atomicIds.has(id)) own.push(`${e.file}: workflow[${i}]: '${id}' is not an atomic task id`);
      const cases = readCases(path.dirname(e.file), task.spec.split);
      if (own.length === 0) loaded.push({ task, cases });
    } catch (error) {
      if (error instanceof BaseError) own.push(error.shortMessage);
      else if (error instanceof Error && error.message.startsWith(path.dirname(e.file)))
        own.push(error.message);
      else throw error;
    }
    if (own.length > 0) p.onTask?.(e.id, own);
  }
  if (loaded.length > 0) {
    requireSandboxBarriers(`task pack ${p.dir}`, p.unsafeSandbox);
    const world = loadWorld();
    const pool = createAnvilPool({ size: Math.min(p.concurrency ?? 2, loaded.length), world });
    await pool.start();
    const reference = resolveModel("reference");
    const attempt = async (task: LoadedTask, model: ModelClient, seed: number) => {
      const instance = await instantiate(task.spec, { runSeed: seed, epoch: 0, world });
      const lease = await pool.lease();
      try {
        return await runAttempt({ task, instance, model, world, chain: lease });
      } finally {
        lease.release();
      }
    };
    try {
      await Promise.all(
        loaded.map(async ({ task, cases }) => {
          const own = problems.get(task.spec.id)!;
          const gold = path.join(
            path.dirname(task.spec.file),
            task.spec.split === "atomic" ? "gold.ts" : "gold/",
          );
          for (const seed of seeds) {
            const result = await attempt(task, reference, seed);
            if (result.score !== 100)
              own.push(`${gold}: seed ${seed}: the gold answer scores ${explain(result)}`);
          }
          for (const c of cases)
            for (const seed of c.correct ? seeds : seeds.slice(0, 1)) {
              const problem = caseShortfall(await attempt(task, caseModel(c), seed), c);
              if (problem) own.push(`${c.path}: seed ${seed}: ${problem}`);
            }
          p.onTask?.(task.spec.id, own);
        }),
      );
    } finally {
      await pool.stop();
    }
  }
  return {
    tasks: packed.map((e) => e.id),
    cases: loaded.reduce((n, l) => n + l.cases.length, 0),
    problems: [...problems.values()].flat().map((line) => line.replace(`${PROJECT_ROOT}${path.sep}`, "")),
  };
}

/** A score with why it is not 100: the failure class and reason, or the failed checks. */
function explain(result: InstanceResult): string {
  const failed = result.checks.filter((c) => !c.passed).map((c) => c.name);
  return `${result.score}${result.failure ? ` (${result.failure.class}: ${result.failure.reason})` : ""}${
    failed.length > 0 ? `; failed ${failed.join(", ")}` : ""
  }`;
}

/**
 * Why a case's result misses its front matter's expectation (tasks/README.md "Writing a task, from zero to proven"), or undefined
 * when it meets it: a wrong answer must stay below its bound (a composite's expected 0 also needs
 * base 0), a correct style must score exactly 100.
 */
export function caseShortfall(result: InstanceResult, c: TaskCase): string | undefined {
  const base = result.composite?.base;
  const ok =
    "below" in c.expect
      ? result.score < c.expect.below
      : result.score === c.expect.score && (c.expect.score !== 0 || base === undefined || base === 0);
  if (ok) return undefined;
  const failed = result.checks.filter((x) => (c.correct ? !x.passed : x.passed)).map((x) => x.name);
  return `${c.name} (${c.kind}): score ${result.score}${base === undefined ? "" : `, base ${base}`}, expected ${
    "below" in c.expect ? `below ${c.expect.below}` : c.expect.score
  }; ${c.correct ? "failed" : "passed"} ${failed.join(", ") || "—"}${
    result.failure ? `; failure ${result.failure.class}: ${result.failure.reason}` : ""
  }`;
}

/**
 * `questbench validate DIR [--seeds 1,2] [--concurrency C] [--unsafe-sandbox]`: prints each task's
 * verdict and every problem on a line of its own, then the totals; exit code 1 when the pack has a
 * problem. Sets `process.exitCode`, as the CLI's other commands do.
 * @throws {UsageError} for a bad flag or a missing DIR.
 */
export async function validateCommand(argv: string[]): Promise<void> {
  let parsed: {
    values: { seeds?: string; concurrency?: string; "unsafe-sandbox"?: boolean };
    positionals: string[];
  };
  const flags = ["seeds", "concurrency", "unsafe-sandbox"];
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        seeds: { type: "string" },
        concurrency: { type: "string" },
        "unsafe-sandbox": { type: "boolean" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw parseArgsUsageError(error, flags);
  }
  if (parsed.positionals.length !== 1)
    throw new UsageError("validate needs one task folder: questbench validate DIR");
  const seeds = (parsed.values.seeds ?? "1,2").split(",").map((s) => {
    if (!/^\d+$/.test(s.trim()))
      throw new UsageError(`--seeds must be integers separated by commas, got '${s}'`);
    return Number(s);
  });
  const concurrency = parsed.values.concurrency === undefined ? 2 : Number(parsed.values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError(`--concurrency must be an integer ≥ 1, got '${parsed.values.concurrency}'`);
  const dir = parsed.positionals[0]!;
  const printed = new Set<string>();
  const { tasks, cases, problems } = await validatePack({
    dir,
    seeds,
    concurrency,
    unsafeSandbox: parsed.values["unsafe-sandbox"],
    onTask: (id, own) => {
      for (const line of own) printed.add(line.replace(`${PROJECT_ROOT}${path.sep}`, ""));
      console.log(own.length === 0 ? `✓ ${id}` : `✗ ${id}\n${own.map((l) => `  ${l}`).join("\n")}`);
    },
  });
  // Problems of no one task (two of the pack's folders sharing an id): every problem is printed.
  for (const line of problems) if (!printed.has(line)) console.log(`✗ ${line}`);
  console.log(
    `${dir}: ${tasks.length} task(s), ${cases} case(s), gold answers on seed(s) ${seeds.join(", ")}: ${
      problems.length === 0 ? "valid" : `${problems.length} problem(s)`
    }`,
  );
  if (problems.length > 0) process.exitCode = 1;
}
