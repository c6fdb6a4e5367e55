import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { taskById, useAttempts } from "./helpers/attempts.ts";

// Wrong composite conversations written by hand (tests/scripted/composite_mutants/<kind>/<task-id>/
// plan.md, round-1.md, …, run through `scripted:`): a wrong amount, a skipped step, a wrong recipient,
// a wrong answer, a wrong order, or stopping halfway and submitting. Each must end with base 0 and
// score 0. The table printed at the end counts, per check name, how many conversations it rejected.
const attempt = useAttempts(3);
const root = path.join(import.meta.dirname, "scripted", "composite_mutants");
const subdirs = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
// Empty directories are skipped: git does not carry them, so they are no conversation.
const mutants = subdirs(root).flatMap((kind) =>
  subdirs(path.join(root, kind))
    .filter((taskId) => readdirSync(path.join(root, kind, taskId)).length > 0)
    .map((taskId) => ({ kind, taskId })),
);
const rejectedBy = new Map<string, number>();

describe.concurrent("wrong composite conversations score 0", () => {
  test("every conversation names a composite task and has a plan and a first round", () => {
    const wrong = mutants
      .filter(
        (m) =>
          taskById.get(m.taskId)?.spec.split !== "composite" ||
          !existsSync(path.join(root, m.kind, m.taskId, "plan.md")) ||
          !existsSync(path.join(root, m.kind, m.taskId, "round-1.md")),
      )
      .map((m) => `${m.kind}/${m.taskId}`);
    expect(wrong).toEqual([]);
  });
  // Only conversations for composite tasks run (the test above names any other directory).
  for (const m of mutants.filter((x) => taskById.get(x.taskId)?.spec.split === "composite")) {
    test(`${m.taskId} · ${m.kind}`, async () => {
      const result = await attempt(m.taskId, `scripted:${path.join(root, m.kind)}`, 1);
      const why = JSON.stringify({ failure: result.failure, checks: result.checks });
      // A conversation that ran out of script files is a broken test, not a rejected attempt.
      expect(result.failure?.class, why).not.toBe("provider_error");
      expect(result.composite?.base, why).toBe(0);
      expect(result.score, why).toBe(0);
      for (const c of result.checks) if (!c.passed) rejectedBy.set(c.name, (rejectedBy.get(c.name) ?? 0) + 1);
      if (result.failure && result.failure.class !== "checks_failed")
        rejectedBy.set(`(${result.failure.class})`, (rejectedBy.get(`(${result.failure.class})`) ?? 0) + 1);
    });
  }
});

afterAll(() => {
  const rows = [...rejectedBy.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `  ${k.padEnd(28)} ${n}`);
  console.log(`composite mutants: ${mutants.length}; failed checks by name:\n${rows.join("\n")}`);
});
