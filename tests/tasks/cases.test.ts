import { afterAll, describe, expect, test } from "vitest";
import { caseShortfall } from "../../src/run/validatePack.ts";
import { caseResponse, readCases } from "../../src/tasks/cases.ts";
import { tasks, useAttempts } from "../helpers/attempts.ts";
import { caseModel, taskFolder } from "../helpers/cases.ts";

// Every task's cases (tasks/<split>/<id>/cases/): wrong answers must stay under their bound (atomic:
// below the pass mark; composite: base 0 and score 0), correct answers in other styles must score
// exactly 100 on seeds 1 and 2. One test per task runs its cases one after another on one leased
// chain, so the suite costs one attempt per case and no per-test set-up. The table printed at the
// end counts, per check, how many wrong answers it rejected.
// Four chains: this file carries most of the suite's attempts (the three former suites had 2 + 3 + 2).
const attempt = useAttempts(4);
const rejectedBy = new Map<string, number>();
const count = (key: string) => rejectedBy.set(key, (rejectedBy.get(key) ?? 0) + 1);
/**
 * Case kinds that name the safety flag the answer must raise. `far_deadline` is a flag, not a failing
 * check (the Rules block of src/protocol/prompt.ts): its cases score 100 and raise only that flag.
 */
const FLAG_KINDS = [
  "no_min_out",
  "loose_min_out",
  "unbounded_max_in",
  "unlimited_approval",
  "far_deadline",
  "value_to_contract",
  "extra_side_effect",
] as const;
const cases = new Map(tasks.map((t) => [t.spec.id, readCases(taskFolder(t), t.spec.split)]));

test('every task has at least three wrong-answer cases (tasks/README.md "Cases per class")', () => {
  const short = tasks
    .map((t) => [t.spec.id, cases.get(t.spec.id)!.filter((c) => !c.correct).length] as const)
    .filter(([, n]) => n < 3);
  expect(short).toEqual([]);
});

describe.concurrent("every task's cases score as their front matter says", () => {
  for (const task of tasks) {
    const list = cases.get(task.spec.id)!;
    if (list.length === 0) continue;
    test(`${task.spec.id}: ${list.length} cases`, async () => {
      const problems: string[] = [];
      // An empty or prose-only case file would "fail" every check and prove nothing.
      for (const c of list)
        if (!/```/.test(caseResponse(c, task.spec.split === "atomic" ? "atomic" : "plan") ?? ""))
          problems.push(`${c.name}: the response has no fenced block`);
      for (const c of list) {
        for (const seed of c.correct ? [1, 2] : [1]) {
          const result = await attempt(task.spec.id, caseModel(c), seed);
          // A conversation that ran out of files is a broken case, not a rejected answer.
          if (result.failure?.class === "provider_error") {
            problems.push(`${c.name}: ${result.failure.reason}`);
            continue;
          }
          const problem = caseShortfall(result, c);
          if (problem) problems.push(`seed ${seed}: ${problem}`);
          // A case named after a safety flag must raise it (tasks/README.md "Safety flags (reported, not scored)").
          if ((FLAG_KINDS as readonly string[]).includes(c.kind) && !result.safety?.includes(c.kind as never))
            problems.push(`${c.name}: safety ${JSON.stringify(result.safety)} lacks ${c.kind}`);
          const unexpected = (result.safety ?? []).filter((f) => f !== c.kind);
          if (c.correct && unexpected.length > 0)
            problems.push(`${c.name}: a correct answer raised safety flags ${unexpected.join(", ")}`);
          if (c.correct) continue;
          for (const check of result.checks) if (!check.passed) count(check.name);
          if (result.failure && result.failure.class !== "checks_failed") count(`(${result.failure.class})`);
        }
      }
      expect(problems).toEqual([]);
      // Each case runs in turn, with its gold answer for the effect ledger: a task with six
      // composite cases takes minutes on a loaded 2-core machine.
    }, 600_000);
  }
});

afterAll(() => {
  const rows = [...rejectedBy.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `  ${k.padEnd(28)} ${n}`);
  const total = [...cases.values()].reduce((n, l) => n + l.length, 0);
  console.log(`cases: ${total}; wrong answers rejected by check:\n${rows.join("\n")}`);
});
