import { closeSync, mkdirSync, openSync, rmdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../runOptions.ts";

// Kept to node:fs and runOptions: the CLI checks --out first, before it loads anything else, so a bad
// --out is refused at once.

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/**
 * Makes `--out` exist as a writable folder, creating the missing folders one level at a time
 * (Node's recursive mkdir spins forever on some paths, e.g. under /proc), then writing and removing
 * a probe file.
 * @param keep false: remove again the folders this call created (a check before the run; nothing
 *   is left behind when a later check refuses the run).
 * @returns the absolute path of the folder.
 * @throws {UsageError} one line naming the path: a file where a folder is needed, a folder that
 *   cannot be created, or one that cannot be written (read-only place, permissions).
 */
export function ensureOutDir(dir: string, options: { keep: boolean }): string {
  const absolute = path.resolve(dir);
  const refuse = (why: string) => new UsageError(`--out ${dir}: ${why}; results could not be written there`);
  const missing: string[] = [];
  for (let at = absolute; ; at = path.dirname(at)) {
    try {
      if (!statSync(at).isDirectory()) throw refuse(`${at} is a file, not a folder`);
      break;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      if (code(error) !== "ENOENT" && code(error) !== "ENOTDIR")
        throw refuse(`${at} cannot be read (${code(error)})`);
      if (path.dirname(at) === at) throw refuse(`${at} does not exist`);
      missing.unshift(at);
    }
  }
  const created: string[] = [];
  try {
    for (const folder of missing) {
      try {
        mkdirSync(folder);
      } catch (error) {
        throw refuse(`${folder} cannot be created (${code(error)})`);
      }
      created.push(folder);
    }
    const probe = path.join(absolute, `.questbench-probe-${process.pid}`);
    try {
      rmSync(probe, { force: true });
      closeSync(openSync(probe, "wx"));
      rmSync(probe);
    } catch (error) {
      throw refuse(`cannot write in ${absolute} (${code(error)})`);
    }
  } finally {
    if (!options.keep) for (const folder of created.reverse()) rmdirSync(folder);
  }
  return absolute;
}
