import fs from "node:fs";

/** Descriptors a sandbox child is given by the harness: stdin, stdout, stderr and the result channel (fd 3). */
export const CHILD_STDIO_COUNT = 4;
/** `O_CLOEXEC` as Linux reports it in the `flags:` line of /proc/<pid>/fdinfo/<fd> (octal, asm-generic/fcntl.h). */
const O_CLOEXEC = 0o2000000;

let inheritable: number[] | undefined;
let devNull: number | undefined;

/**
 * The descriptors of this process, numbered {@link CHILD_STDIO_COUNT} and up, that a process it
 * spawns would inherit (docs/SECURITY.md, "Descriptors"): on Linux every open one not marked
 * close-on-exec (/proc/self/fdinfo), elsewhere every open one (/dev/fd; the flag cannot be read
 * there, and overwriting a descriptor that would have closed anyway costs one dup2).
 *
 * Read once per process: Node and libuv open every descriptor of their own with `O_CLOEXEC`, so the
 * inheritable ones are those the process's launcher left open (a shell's `exec 7<file`, a parent's
 * pipe), fixed when the process started (tests/sandbox.test.ts › "the harness opens nothing a child
 * inherits").
 * @returns ascending descriptor numbers; empty when none is found or the folder cannot be read.
 */
export function inheritableFds(): readonly number[] {
  inheritable ??= listInheritableFds();
  return inheritable;
}

/** {@link inheritableFds} read afresh now, not cached. */
export function listInheritableFds(): number[] {
  const linux = fs.existsSync("/proc/self/fdinfo");
  let names: string[];
  try {
    names = fs.readdirSync(linux ? "/proc/self/fd" : "/dev/fd");
  } catch {
    return [];
  }
  const fds: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isSafeInteger(fd) || fd < CHILD_STDIO_COUNT) continue;
    if (linux) {
      let info: string;
      try {
        info = fs.readFileSync(`/proc/self/fdinfo/${fd}`, "utf8");
      } catch {
        continue; // the listing's own descriptor, closed by now
      }
      const flags = /^flags:\s+([0-7]+)$/m.exec(info)?.[1];
      if (flags !== undefined && (Number.parseInt(flags, 8) & O_CLOEXEC) !== 0) continue;
    }
    fds.push(fd);
  }
  return fds.sort((a, b) => a - b);
}

/**
 * The `stdio` option of a sandbox child's spawn: four pipes (fds 0–3), then `/dev/null` in place of
 * every descriptor of {@link inheritableFds}, so the child starts with no descriptor of the harness's
 * launcher (libuv dup2s each entry over the inherited one before exec); the child's runner closes
 * those too before its own code runs (child/fdBarrier.mjs).
 * @returns the stdio array for `child_process.spawn`, and the descriptor numbers the child must close.
 */
export function childStdio(): { stdio: (number | "pipe" | "ignore")[]; closeFds: number[] } {
  const fds = inheritableFds();
  const stdio: (number | "pipe" | "ignore")[] = ["pipe", "pipe", "pipe", "pipe"];
  if (fds.length === 0) return { stdio, closeFds: [] };
  devNull ??= fs.openSync("/dev/null", "r");
  const last = fds[fds.length - 1]!;
  const wanted = new Set(fds);
  for (let fd = CHILD_STDIO_COUNT; fd <= last; fd++) stdio.push(wanted.has(fd) ? devNull : "ignore");
  return { stdio, closeFds: [...fds] };
}
