import type { InstanceResult } from "../results/types.ts";
import { paperScoring } from "../validators/paperScoring.ts";
import { type AtomicAttemptParameters, runAtomicAttempt } from "./atomic.ts";
import { runCompositeAttempt } from "./composite.ts";

/** Runs one attempt with the protocol of the task's split (SPEC.md §6). */
export async function runAttempt(p: AtomicAttemptParameters): Promise<InstanceResult> {
  const result = await (p.task.spec.split === "composite" ? runCompositeAttempt(p) : runAtomicAttempt(p));
  // `--scoring paper`: the same attempt scored the paper's way too, beside ours (paper tasks only).
  if (p.modes?.scoring !== "paper" || (p.task.spec.set ?? "paper") !== "paper") return result;
  return { ...result, paperScoring: paperScoring(result, p.task.spec) };
}
