import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { SamplingSettings } from "../models/types.ts";
import { PROJECT_ROOT } from "../tasks/files.ts";

// The folder's finished results are read by the results recorder (src/results/folder.ts); resume
// only decides which of them still hold (their keys and the hashes below).

/**
 * What a finished result must match to be kept by a rerun (resume): model name, run seed, epoch,
 * task id, the task file's sha256 (an edited task runs again), the sampling settings sent, the hash
 * of the code that prompts, runs and scores ({@link scoringCodeHash}: an edited validator or prompt
 * scores again, in watch mode too) and, for a `scripted:DIR` model, the hash of the task's response
 * files (an edited answer runs again; see {@link scriptedResponsesHash}).
 */
export function resumeKey(p: {
  model: string;
  seed: number;
  epoch: number;
  taskId: string;
  taskSha256: string;
  sampling: SamplingSettings | null;
  codeSha256: string;
  responsesSha256?: string | undefined;
  /** Run modes that change the prompt: a result of another mode is not this one's. */
  modes?: unknown;
  /** The task pack (`--tasks-dir`) of the task: a pack's task is not the package's task of that id. */
  pack?: string | undefined;
}): string {
  const parts: unknown[] = [p.model, p.seed, p.epoch, p.taskId, p.taskSha256, p.sampling, p.codeSha256];
  if (p.responsesSha256 !== undefined) parts.push(p.responsesSha256);
  if (p.modes !== undefined) parts.push({ modes: p.modes });
  if (p.pack !== undefined) parts.push({ pack: p.pack });
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/** Folders whose files decide a score: everything under src/ but the rendering of results, and the world. */
const SCORING_CODE = ["src", "fixtures/world"];
const NOT_SCORING = new Set(["src/reporting", "src/results"]);

/**
 * sha256 over the names and contents of the code and data that prompt the model, run its code and
 * score it (every file under src/ except src/reporting and src/results, and fixtures/world), in
 * path order. Task files are not in it: each task's own sha256 is part of its key.
 */
export function scoringCodeHash(root = PROJECT_ROOT): string {
  const hash = createHash("sha256");
  const walk = (rel: string) => {
    if (NOT_SCORING.has(rel)) return;
    const abs = path.join(root, rel);
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) walk(`${rel}/${name}`);
      return;
    }
    const content = readFileSync(abs);
    hash.update(`${rel}\0${content.length}\0`).update(content);
  };
  for (const dir of SCORING_CODE) walk(dir);
  return hash.digest("hex");
}

/**
 * sha256 of the files a `scripted:DIR` model answers `taskId` from (README "Scripted models"): `DIR/<task-id>.md`
 * and every file under `DIR/<task-id>/` (plan.md, round-N.md), names and contents, in name order.
 * Missing files hash as absent, so adding one changes the hash too.
 */
export function scriptedResponsesHash(dir: string, taskId: string): string {
  const hash = createHash("sha256");
  const add = (file: string, name: string) => {
    let content: Buffer | null = null;
    try {
      content = readFileSync(file);
    } catch {
      // absent
    }
    hash.update(`${name}\0${content === null ? "-" : content.length}\0`);
    if (content) hash.update(content);
  };
  add(path.join(dir, `${taskId}.md`), `${taskId}.md`);
  const folder = path.join(dir, taskId);
  let names: string[] = [];
  try {
    if (statSync(folder).isDirectory()) names = readdirSync(folder).sort();
  } catch {
    // no folder
  }
  for (const name of names) add(path.join(folder, name), `${taskId}/${name}`);
  return hash.digest("hex");
}
