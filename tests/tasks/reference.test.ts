import { describe, expect, test } from "vitest";
import { tasks, useAttempts } from "../helpers/attempts.ts";

// The gold responses are the benchmark's proof that every task is solvable and that every
// validator accepts a right answer (docs/ARCHITECTURE.md "A task"). Seed 2 here (seed 1 runs through the real SDKs in
// models.run.test.ts); `npx questbench --seed S` covers more seeds.
const attempt = useAttempts(2);
// Atomic and composite: the gold conversations must reach 100 in K_opt rounds, under our scoring and
// under `--scoring paper` (so the paper's 107 tasks give 10,700 under both).

describe.concurrent("the reference model scores 100", () => {
  for (const task of tasks) {
    for (const seed of [2]) {
      test(`${task.spec.id} · seed ${seed}`, async () => {
        const result = await attempt(task.spec.id, "reference", seed, 0, { scoring: "paper" });
        expect(result.failure, JSON.stringify(result.checks.filter((c) => !c.passed))).toBeNull();
        expect(result.score).toBe(100);
        if (task.spec.set === "hard") expect(result.paperScoring).toBeUndefined();
        else expect(result.paperScoring?.score, JSON.stringify(result.paperScoring?.checks)).toBe(100);
      });
    }
  }
});

// `--protocol paper` (README "Comparing with the paper"): every composite's gold conversation, answered
// through the paper implementation's protocol (its plan's subtasks, one gold round each), still reaches
// 100 in K_opt rounds; with the atomic tasks above, which that protocol leaves alone, the paper's 107
// tasks give 10,700 under it. Hard-split composites keep our protocol under the flag (proven in
// tests/protocol_paper.test.ts), so their gold runs above already cover them.
describe.concurrent("the reference model scores 100 under --protocol paper", () => {
  for (const task of tasks.filter((t) => t.spec.split === "composite" && t.spec.set !== "hard")) {
    test(`${task.spec.id} · seed 2`, async () => {
      const result = await attempt(task.spec.id, "reference", 2, 0, { protocol: "paper", scoring: "paper" });
      expect(result.failure, JSON.stringify(result.checks.filter((c) => !c.passed))).toBeNull();
      expect(result.score).toBe(100);
      const c = result.composite!;
      expect(c.kAct).toBe(c.kOpt);
      expect(c).toMatchObject({ protocol: "paper", planParse: "json", endedBy: "submit" });
      expect(c.rounds.every((r, i) => r.subtask === i + 1 && r.try === 1)).toBe(true);
      expect(result.paperScoring?.score, JSON.stringify(result.paperScoring?.checks)).toBe(100);
    });
  }
});

// `--protocol tools` (docs/PROTOCOLS.md): every task's gold run, replayed as tool calls, scores 100
// under the same checks and ledger; a composite's K_act (transactions and signatures; reads are free,
// so a query round of the gold counts nothing) is at most K_opt (optimal_steps plus the gold's signatures).
describe.concurrent("the reference model scores 100 under --protocol tools", () => {
  for (const task of tasks) {
    test(`${task.spec.id} · seed 2`, async () => {
      const result = await attempt(task.spec.id, "reference", 2, 0, { protocol: "tools" });
      expect(result.failure, JSON.stringify(result.checks.filter((c) => !c.passed))).toBeNull();
      expect(result.score).toBe(100);
      expect(
        result.tools?.calls.every((c) => c.ok),
        JSON.stringify(result.tools?.calls),
      ).toBe(true);
      expect(result.tools?.turns).toBe(1);
      if (result.composite) {
        expect(result.composite.kAct).toBeLessThanOrEqual(result.composite.kOpt);
        expect(result.composite.decay).toBe(1);
      }
    });
  }
});
