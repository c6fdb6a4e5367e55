import { describe, expect, test } from "vitest";
import { tasks, useAttempts } from "./helpers/attempts.ts";

// The gold responses are the benchmark's proof that every task is solvable and that every
// validator accepts a right answer (SPEC.md §7). Seeds 1–3 here; the CLI run covers more.
const attempt = useAttempts(2);
// Atomic and composite: the gold conversations must reach 100 in K_opt rounds.

describe.concurrent("the reference model scores 100", () => {
  for (const task of tasks) {
    for (const seed of [1, 2, 3]) {
      test(`${task.spec.id} · seed ${seed}`, async () => {
        const result = await attempt(task.spec.id, "reference", seed);
        expect(result.failure, JSON.stringify(result.checks.filter((c) => !c.passed))).toBeNull();
        expect(result.score).toBe(100);
      });
    }
  }
});
