import type { InstanceResult, RunResults, SkippedInstance } from "./types.ts";

/** An instance not started: `--budget` would have been passed, or `--early-stop` ended the run. */
export type NotStarted = NonNullable<RunResults["notStarted"]>[number];

/**
 * What became of one planned instance (results.json, the reporter and the exit code read it):
 * - `scored`: the attempt ran and was scored (any score, any model failure class);
 * - `resumed`: a finished result with the same resume key was kept from an earlier run into `--out`;
 * - `provider_error`: the provider never answered (no score, left out of the totals, retried next run);
 * - `infra_error`: the chain failed under every infrastructure retry (scored 0, counted, retried next run);
 * - `not_started`: `--budget` would have been passed, or `--early-stop N` saw N schema failures in a row;
 * - `skipped`: fork mode, the task's pre-state could not be provisioned (no model failure).
 */
export type InstanceOutcome =
  | { kind: "scored" | "resumed"; result: InstanceResult }
  | { kind: "provider_error" | "infra_error"; result: InstanceResult; message: string }
  | { kind: "not_started"; notStarted: NotStarted; message: string }
  | { kind: "skipped"; skipped: SkippedInstance };
