import type { InstanceResult } from "../results/types.ts";
import { type AtomicAttemptParameters, runAtomicAttempt } from "./atomic.ts";
import { runCompositeAttempt } from "./composite.ts";

/** Runs one attempt with the protocol of the task's split (SPEC.md §6). */
export function runAttempt(p: AtomicAttemptParameters): Promise<InstanceResult> {
  return p.task.spec.split === "composite" ? runCompositeAttempt(p) : runAtomicAttempt(p);
}
