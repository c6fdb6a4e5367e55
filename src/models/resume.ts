import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { InstanceResult } from "../reporting/types.ts";
import type { SamplingSettings } from "./types.ts";

/**
 * What a finished result must match to be kept by a rerun (resume): model name, run seed, epoch,
 * task id, the task file's sha256 (an edited task runs again) and the sampling settings sent.
 */
export function resumeKey(p: {
  model: string;
  seed: number;
  epoch: number;
  taskId: string;
  taskSha256: string;
  sampling: SamplingSettings | null;
}): string {
  const parts = [p.model, p.seed, p.epoch, p.taskId, p.taskSha256, p.sampling];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/**
 * The finished results of earlier invocations in `<outDir>/instances.jsonl`, by resume key. Later lines
 * win; results with a `provider_error` are left out (they are retried), and so are lines without a key
 * and a last line cut short by a kill.
 */
export function readFinished(outDir: string): Map<string, InstanceResult> {
  const finished = new Map<string, InstanceResult>();
  let text: string;
  try {
    text = readFileSync(path.join(outDir, "instances.jsonl"), "utf8");
  } catch {
    return finished;
  }
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let result: InstanceResult;
    try {
      result = JSON.parse(line) as InstanceResult;
    } catch {
      continue;
    }
    if (!result.resumeKey) continue;
    if (result.failure?.class === "provider_error") finished.delete(result.resumeKey);
    else finished.set(result.resumeKey, result);
  }
  return finished;
}
