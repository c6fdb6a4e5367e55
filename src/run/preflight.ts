import { checkRunModel } from "../models/checkRunModel.ts";
import { missingScriptedAnswers } from "../models/scripted.ts";
import { outDir, type RunOptions } from "../runOptions.ts";
import { taskIndex } from "../tasks/files.ts";
import { ensureOutDir } from "./outDir.ts";
import { checkFolderSettings } from "./outFolder.ts";
import { indexedSelection } from "./plan.ts";

/**
 * Everything a run checks before it spends anything (no chain, no sandbox, no provider call;
 * docs/RUNNING.md "The output folder"), cheapest first: `--out` is a folder that can be written or created, the model resolves
 * (key, lifecycle, `--budget` price), the folder holds no results of another model or other
 * settings, the selection names known tasks, and a `scripted:DIR` has a file for every selected task.
 * Then the output folder is created.
 * @param lastCheck a check of the caller's, run after these and before the folder is created (so a
 *   run it refuses leaves no folder behind).
 * @returns one-line warnings to print before the run (a deprecated model; tasks a scripted model has
 *   no answer for, which are scored 0 as `no_answer`).
 * @throws {UsageError} for a bad `--out`, a folder of another run, an unknown task id or empty split.
 * @throws {ModelProviderError} for a model that cannot be called (missing key, retired, no price for `--budget`).
 */
export function preflight(options: RunOptions, lastCheck?: () => void): string[] {
  const dir = outDir(options);
  ensureOutDir(dir, { keep: false });
  const warnings = checkRunModel(options);
  checkFolderSettings(dir, options);
  const selected = indexedSelection(taskIndex(options.tasksDirs), options);
  if (options.model.startsWith("scripted:")) {
    const missing = missingScriptedAnswers(
      options.model.slice("scripted:".length),
      selected,
      options.modes?.protocol,
    );
    if (missing.size > 0)
      warnings.push(
        `${options.model} has no answer for ${missing.size} selected task(s), scored 0 as no_answer: ${[
          ...missing,
        ]
          .map(([id, files]) => `${id} (${files.join(", ")})`)
          .join(", ")}`,
      );
  }
  lastCheck?.();
  ensureOutDir(dir, { keep: true });
  return warnings;
}
