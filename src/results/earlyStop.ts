import type { InstanceResult } from "./types.ts";

/**
 * `--early-stop N` (paper §5.3: "early termination triggered by repeated schema/interface failures",
 * the source of its Atomic-Only models; docs/RUNNING.md "Early termination"): which finished
 * instances count as a schema failure, and the run's streak of them.
 */

/**
 * Whether an instance failed on the runner's interface rather than on the task (paper App. B.3
 * "Schema Invalid Rules": no code block, no `executeSkill`, a return value that is not a transaction,
 * unparseable control JSON): an atomic or composite instance whose failure class is
 * `schema_invalid`, or a composite whose every counted round failed that way. Provider errors
 * (no answer at all) are not: they say nothing of the model's interface.
 */
export function isSchemaFailure(i: Pick<InstanceResult, "failure" | "composite">): boolean {
  if (i.failure?.class === "schema_invalid") return true;
  const counted = i.composite?.rounds.filter((r) => r.counted) ?? [];
  return counted.length > 0 && counted.every((r) => r.failure?.class === "schema_invalid");
}

/**
 * The run's streak of schema failures in the order instances finish: `record` each finished
 * instance; `stopped` once `limit` came in a row (any other finished instance resets the streak;
 * provider errors neither count nor reset it). A limit of 0 never stops.
 */
export function createEarlyStop(limit: number) {
  let streak = 0;
  return {
    record(i: Pick<InstanceResult, "failure" | "composite">): void {
      if (i.failure?.class === "provider_error") return;
      streak = isSchemaFailure(i) ? streak + 1 : 0;
    },
    stopped: () => limit > 0 && streak >= limit,
    limit,
  };
}
