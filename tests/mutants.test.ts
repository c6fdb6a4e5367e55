import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PASS_THRESHOLD } from "../src/validators/score.ts";
import { taskById, useAttempts } from "./helpers/attempts.ts";

// Wrong answers written by hand (tests/mutants/<kind>/<task-id>.md, run through `scripted:`):
// each must score below the pass mark. The table printed at the end counts, per check factory,
// how many mutants it rejected.
const attempt = useAttempts(2);
const root = path.join(import.meta.dirname, "mutants");
const mutants = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(path.join(root, d.name))
      .filter((f) => f.endsWith(".md"))
      .map((f) => ({ kind: d.name, taskId: f.replace(/\.md$/, "") })),
  );
const rejectedBy = new Map<string, number>();

describe.concurrent("wrong answers score below 60", () => {
  test("every mutant names a known task", () => {
    const unknown = mutants.filter((m) => !taskById.has(m.taskId));
    expect(unknown).toEqual([]);
  });
  for (const m of mutants) {
    test(`${m.taskId} · ${m.kind}`, async () => {
      const result = await attempt(m.taskId, `scripted:${path.join(root, m.kind)}`, 1);
      expect(result.score, JSON.stringify(result.checks)).toBeLessThan(PASS_THRESHOLD);
      const spec = taskById.get(m.taskId)!.spec;
      for (const [i, c] of result.checks.entries()) {
        if (c.passed) continue;
        const factory = spec.checks[i]!.check;
        rejectedBy.set(factory, (rejectedBy.get(factory) ?? 0) + 1);
      }
      if (result.failure && result.failure.class !== "checks_failed")
        rejectedBy.set(`(${result.failure.class})`, (rejectedBy.get(`(${result.failure.class})`) ?? 0) + 1);
    });
  }
});

afterAll(() => {
  const rows = [...rejectedBy.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `  ${k.padEnd(24)} ${n}`);
  console.log(`mutants: ${mutants.length}; failed checks by factory:\n${rows.join("\n")}`);
});
