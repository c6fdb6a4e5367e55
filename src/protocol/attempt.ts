import type { InstanceResult } from "../results/types.ts";
import { cleanResultText } from "../sandbox/cleanText.ts";
import { paperScoring } from "../validators/paperScoring.ts";
import { type AtomicAttemptParameters, runAtomicAttempt } from "./atomic.ts";
import { runCompositeAttempt } from "./composite.ts";
import { runPaperCompositeAttempt } from "./paperComposite.ts";
import { runToolsAttempt } from "./tools/attempt.ts";

/**
 * Runs one attempt with the protocol of the task's split: atomic, or composite (ours, or under
 * `--protocol paper` the paper implementation's for the paper's tasks; a hard-split composite keeps
 * ours, where an error report ends the attempt as its judgement checks need); under `--protocol
 * tools`, every task as a tool-using conversation (src/protocol/tools/attempt.ts).
 */
export async function runAttempt(p: AtomicAttemptParameters): Promise<InstanceResult> {
  const paperTask = (p.task.spec.set ?? "paper") === "paper";
  // Model text enters the result here, once, clean (docs/SECURITY.md "Model text").
  const result = cleanResultText(
    await (p.modes?.protocol === "tools"
      ? runToolsAttempt(p)
      : p.task.spec.split !== "composite"
        ? runAtomicAttempt(p)
        : p.modes?.protocol === "paper" && paperTask
          ? runPaperCompositeAttempt(p)
          : runCompositeAttempt(p)),
  );
  // `--scoring paper`: the same attempt scored the paper's way too, beside ours (paper tasks only).
  if (p.modes?.scoring !== "paper" || !paperTask) return result;
  return { ...result, paperScoring: paperScoring(result, p.task.spec) };
}
