import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { caseResponse, readCases } from "../../src/tasks/cases.ts";
import type { LoadedTask } from "../../src/tasks/load.ts";
import { PROJECT_ROOT } from "../../src/tasks/load.ts";
import { tasks } from "./attempts.ts";

// One case as a model: src/models/caseModel.ts (also used by `questbench validate`).
export { caseModel } from "../../src/models/caseModel.ts";

/** A task's folder (absolute). */
export function taskFolder(t: LoadedTask): string {
  return path.join(PROJECT_ROOT, path.dirname(t.spec.file));
}

/**
 * Writes a `scripted:` directory answering every atomic task that has the case `name` with it
 * (`<id>.md`), e.g. every task's `wrong_amount`, for tests that need a weak model over many tasks.
 */
export function scriptedDirOfCases(
  name: string,
  dir = mkdtempSync(path.join(tmpdir(), "qb-cases-")),
): string {
  mkdirSync(dir, { recursive: true });
  for (const t of tasks.filter((x) => x.spec.split === "atomic")) {
    const c = readCases(taskFolder(t), "atomic").find((x) => x.name === name);
    if (c) writeFileSync(path.join(dir, `${t.spec.id}.md`), caseResponse(c, "atomic")!);
  }
  return dir;
}
