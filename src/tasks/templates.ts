import type { TaskSpec } from "./types.ts";

// Apart from instantiate.ts, which loads viem and ethers: the task selection (select.ts) checks a
// run's templates before anything starts, in the process of every CLI command.

/** `--nl-level` (docs/TASKS.md "Sampling and instance seeds"): the wording of a task's prompt; precise is the `templates` field. */
export type NlLevel = "precise" | "moderate" | "vague";

/** The templates a task has at an NL level; undefined when the task has none at that level. */
export function templatesAt(
  spec: Pick<TaskSpec, "templates" | "templatesByLevel">,
  level: NlLevel = "precise",
) {
  const list = level === "precise" ? spec.templates : spec.templatesByLevel?.[level];
  return list !== undefined && list.length > 0 ? list : undefined;
}
