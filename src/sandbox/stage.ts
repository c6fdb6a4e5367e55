import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";
import { SandboxError } from "../errors.ts";
import { type LibraryBundle, libraryBundle } from "./libraryBundle.ts";
import { SANDBOX_GID } from "./networkBarrier.ts";
import { sandboxRuntime } from "./sandboxRuntime.ts";

/**
 * Where this process's sandbox children find what they may read (docs/SECURITY.md, "Files"): a
 * private folder under the system temp folder, so a project anywhere works, even under a folder no
 * other uid can traverse (a clone in /root). It holds no secret.
 */
export type SandboxStage = {
  /** `<tmp>/questbench-sandbox-<pid>-<random>`: 0711 as root (children traverse, nobody lists), 0700 otherwise. */
  root: string;
  /** The sandbox runtime's `node`, where a child's uid may execute it. */
  execPath: string;
  /** childRunner.mjs with its modules (src/sandbox/child/*.mjs, one barrier each) bundled into one file, read-only. */
  runnerPath: string;
  /** The ethers/viem bundle, copied read-only into the stage (`entries` point into it). */
  bundle: LibraryBundle;
};

const PREFIX = "questbench-sandbox-";
let pending: Promise<SandboxStage> | undefined;

function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * The stage of this process, built on first use and removed when the process exits; stages left by
 * a process that died without cleaning up are removed on the way.
 *
 * @throws {SandboxError} when the temp folder cannot be written.
 */
export function sandboxStage(): Promise<SandboxStage> {
  pending ??= build().catch((error) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

async function build(): Promise<SandboxStage> {
  const source = await libraryBundle();
  if (runsAsRoot() && !othersCanTraverse(os.tmpdir()))
    throw new SandboxError(
      `The temp folder ${os.tmpdir()} is out of reach of the sandbox's uids (a folder above it lacks o+x): set TMPDIR to one they can traverse, e.g. /tmp.`,
    );
  sweepStaleStages();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
  process.on("exit", () => removeStage(root));
  exitHooksOnSignals();
  try {
    if (runsAsRoot()) fs.chmodSync(root, 0o711);
    const runnerPath = path.join(root, "runner.mjs");
    fs.writeFileSync(runnerPath, await bundleRunner(), { mode: 0o444 });
    const dir = path.join(root, "libs");
    copyReadOnly(source.dir, dir);
    const entries = Object.fromEntries(
      Object.entries(source.entries).map(([name, file]) => [name, path.join(dir, path.basename(file))]),
    );
    return { root, execPath: stageRuntime(root), runnerPath, bundle: { dir, entries } };
  } catch (error) {
    removeStage(root);
    throw new SandboxError("Cannot stage the sandbox in the temp folder.", { cause: error, details: root });
  }
}

/**
 * childRunner.mjs and the modules it imports from ./child, as one ES module (esbuild; Node's
 * built-ins stay imports). One file for the child to read and compile: loaded as eight files, a
 * cold child booted about 7 ms (8 %) slower (`npm run bench -- --sections sandbox --baseline REF`).
 * Module order, and so the order in which the barriers' references are captured, is kept.
 */
async function bundleRunner(): Promise<string> {
  const result = await esbuild({
    entryPoints: [fileURLToPath(new URL("./childRunner.mjs", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "node",
    charset: "utf8",
    legalComments: "none",
    // Keeps `import "node:util"`, which the runner loads for its side effect before the lockdown.
    treeShaking: false,
    logLevel: "silent",
    write: false,
  });
  return result.outputFiles[0]!.text;
}

/** Copies every file of `from` into a new folder `to`: files 0444, the folder 0555 (nobody changes them). */
function copyReadOnly(from: string, to: string): void {
  fs.mkdirSync(to);
  for (const file of fs.readdirSync(from)) {
    fs.copyFileSync(path.join(from, file), path.join(to, file));
    fs.chmodSync(path.join(to, file), 0o444);
  }
  fs.chmodSync(to, 0o555);
}

/**
 * Makes SIGTERM, SIGINT and SIGHUP end this process through `process.exit`, so its exit hooks run
 * (this stage removed, its sandbox children and Anvils stopped) where a signal's default action would
 * skip them: Vitest stops its worker processes with SIGTERM. Only where nothing else listens for the
 * signal (the CLI's reporter does, and exits itself).
 */
function exitHooksOnSignals(): void {
  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ] as const) {
    const onSignal = () => {
      if (process.listenerCount(signal) === 1) process.exit(code);
    };
    process.on(signal, onSignal);
  }
}

/**
 * Removes a stage. Its `libs` folder is read-only (0555) so that no child can change the bundle, and
 * only root may delete entries of a folder it cannot write: the owner makes it writable first (an
 * ordinary user's stages were never removed, by the exit hook or the sweep).
 */
function removeStage(root: string): void {
  try {
    fs.chmodSync(path.join(root, "libs"), 0o700);
  } catch {
    // not staged that far
  }
  try {
    fs.rmSync(root, { recursive: true, force: true });
  } catch {
    // the next process's sweep tries again
  }
}

/** Removes stages whose process is gone (killed before its exit hook ran). */
function sweepStaleStages(): void {
  let names: string[];
  try {
    names = fs.readdirSync(os.tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || alive(Number(pid))) continue;
    const dir = path.join(os.tmpdir(), name);
    try {
      if (fs.lstatSync(dir).uid === process.getuid?.()) removeStage(dir);
    } catch {
      // Gone already, or not ours.
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** True when `target` and every folder above it let others through (execute, for a file). */
function othersCanTraverse(target: string): boolean {
  try {
    for (let entry = target; ; entry = path.dirname(entry)) {
      if ((fs.statSync(entry).mode & 0o001) === 0) return false;
      if (path.dirname(entry) === entry) return true;
    }
  } catch {
    return false;
  }
}

/**
 * The runtime binary a child may execute. As root, children run under uids of their own, which
 * must traverse every folder above the binary: one under a private home (/root/…/node_modules) is
 * linked or copied once into a root-owned cache in the temp folder, shared by later processes.
 */
function stageRuntime(root: string): string {
  const binary = fs.realpathSync(sandboxRuntime().execPath);
  if (!runsAsRoot() || othersCanTraverse(binary)) return binary;
  const stat = fs.statSync(binary);
  const cache = path.join(os.tmpdir(), `questbench-runtime-${process.getuid?.()}`);
  const name = `node-${sandboxRuntime().version}-${stat.size}-${Math.round(stat.mtimeMs)}`;
  let folder = cache;
  try {
    fs.mkdirSync(cache, { mode: 0o755 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  // A cache someone else made or may write is not used: the stage keeps a copy of its own.
  const owned = fs.lstatSync(cache);
  if (!owned.isDirectory() || owned.uid !== process.getuid?.() || (owned.mode & 0o022) !== 0) folder = root;
  const target = path.join(folder, name);
  if (fs.existsSync(target)) return target;
  const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  // A hard link shares the binary's inode, mode included: used as is when others may run it, else a
  // copy of its own (never a chmod of the project's file).
  let linked = false;
  try {
    fs.linkSync(binary, temp);
    linked = (fs.statSync(temp).mode & 0o005) === 0o005;
    if (!linked) fs.unlinkSync(temp);
  } catch {
    // Another file system: copied below.
  }
  if (!linked) {
    fs.copyFileSync(binary, temp);
    fs.chmodSync(temp, 0o555);
  }
  fs.renameSync(temp, target);
  return target;
}

/**
 * A folder of the stage for one child's module: as root owned by the child's uid (0500, its module
 * 0400), so a sibling child, running as another uid, cannot read it; as an ordinary user 0700, and
 * the permission model lets each child read only its own folder (the children share the uid).
 */
export function createChildFolder(stage: SandboxStage, uid: number | undefined): string {
  const dir = path.join(stage.root, `c-${randomBytes(12).toString("hex")}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
    if (uid !== undefined) {
      fs.chownSync(dir, uid, SANDBOX_GID);
      fs.chmodSync(dir, 0o500);
    }
  } catch (error) {
    throw new SandboxError("Cannot create the sandbox folder.", { cause: error, details: dir });
  }
  return dir;
}

/** Writes the child's module: readable by that child's uid alone (0400). */
export function writeChildModule(file: string, text: string, uid: number | undefined): void {
  try {
    fs.writeFileSync(file, text, { mode: 0o400 });
    if (uid !== undefined) fs.chownSync(file, uid, SANDBOX_GID);
  } catch (error) {
    throw new SandboxError("Cannot write a sandbox file.", { cause: error, details: file });
  }
}
