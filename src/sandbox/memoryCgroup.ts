import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Which OS barrier caps a sandboxed child's whole memory, beyond V8's heap cap
 * (`--max-old-space-size` bounds only the JavaScript heap: `Buffer`s, typed arrays and WebAssembly
 * memory live outside it).
 * - `cgroup-v1`: a memory cgroup of its own per child under `/sys/fs/cgroup/memory/questbench/`
 *   (`memory.limit_in_bytes`, and `memory.memsw.limit_in_bytes` where swap accounting exists).
 * - `cgroup-v2`: the same under a cgroup2 mount whose root offers the `memory` controller
 *   (`memory.max`, `memory.swap.max`).
 * - `none`: not root on Linux, or no writable memory cgroup; `detail` says which.
 * Over the limit the kernel's OOM killer ends the child alone (SIGKILL), which is classified as
 * `memory_limit`.
 */
export type MemoryBarrier = { kind: "cgroup-v1" | "cgroup-v2" | "none"; detail: string };

type Hierarchy = { kind: "cgroup-v1" | "cgroup-v2"; parent: string; limitFile: string; swapFile: string };

/** Memory a child may use beyond its V8 heap cap: Node itself, the ethers bundle, stacks, buffers. */
export const MEMORY_HEADROOM_MB = 256;

const GROUP = "questbench";
let cached: { barrier: MemoryBarrier; hierarchy?: Hierarchy } | undefined;

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function findHierarchy(root: string): Hierarchy | string {
  const v1 = path.join(root, "memory");
  if (fs.existsSync(path.join(v1, "memory.limit_in_bytes"))) {
    if (!writable(v1)) return `${v1} is not writable`;
    return {
      kind: "cgroup-v1",
      parent: path.join(v1, GROUP),
      limitFile: "memory.limit_in_bytes",
      swapFile: "memory.memsw.limit_in_bytes",
    };
  }
  for (const dir of [root, path.join(root, "unified")]) {
    const controllers = path.join(dir, "cgroup.controllers");
    if (!fs.existsSync(controllers)) continue;
    if (!fs.readFileSync(controllers, "utf8").split(/\s+/).includes("memory"))
      return `the cgroup2 hierarchy at ${dir} has no memory controller`;
    if (!writable(dir)) return `${dir} is not writable`;
    return {
      kind: "cgroup-v2",
      parent: path.join(dir, GROUP),
      limitFile: "memory.max",
      swapFile: "memory.swap.max",
    };
  }
  return `no memory cgroup hierarchy under ${root}`;
}

const CGROUP_ROOT = "/sys/fs/cgroup";

/**
 * Detects (once per process) the memory cgroup hierarchy and creates the `questbench` parent group.
 * @returns the barrier that {@link limitChildMemory} will apply.
 */
export function ensureMemoryBarrier(): MemoryBarrier {
  if (cached) return cached.barrier;
  if (process.platform !== "linux" || process.getuid?.() !== 0) {
    cached = { barrier: { kind: "none", detail: "not root on Linux: only V8's heap cap applies" } };
    return cached.barrier;
  }
  const found = findHierarchy(CGROUP_ROOT);
  if (typeof found === "string") {
    cached = { barrier: { kind: "none", detail: `${found}: only V8's heap cap applies` } };
    return cached.barrier;
  }
  try {
    fs.mkdirSync(found.parent, { recursive: true });
    sweepMemoryCgroups(found.parent);
    if (found.kind === "cgroup-v2") {
      // Children of the questbench group get the memory controller (root's is enabled already).
      const control = path.join(path.dirname(found.parent), "cgroup.subtree_control");
      if (!fs.readFileSync(control, "utf8").includes("memory")) fs.writeFileSync(control, "+memory");
      fs.writeFileSync(path.join(found.parent, "cgroup.subtree_control"), "+memory");
    }
  } catch (error) {
    cached = {
      barrier: {
        kind: "none",
        detail: `cannot set up ${found.parent} (${(error as Error).message}): only V8's heap cap applies`,
      },
    };
    return cached.barrier;
  }
  cached = {
    barrier: {
      kind: found.kind,
      detail: `each sandboxed child in a memory cgroup of its own under ${found.parent}, joined as its module arrives: its V8 heap cap + ${MEMORY_HEADROOM_MB} MiB of memory allocated from then on, swap included`,
    },
    hierarchy: found,
  };
  return cached.barrier;
}

/**
 * Removes the groups of children that are gone, left behind by a harness killed with SIGKILL. A
 * group's name carries its child's pid; a live child's group (another harness's) is left alone.
 */
export function sweepMemoryCgroups(parent = cached?.hierarchy?.parent): void {
  if (!parent) return;
  for (const name of fs.readdirSync(parent)) {
    const pid = /^child-(\d+)-/.exec(name)?.[1];
    if (!pid || fs.existsSync(`/proc/${pid}`)) continue;
    try {
      fs.rmdirSync(path.join(parent, name));
    } catch {
      // Busy or removed by another harness meanwhile.
    }
  }
}

/** A child's own memory cgroup (`child-<pid>-of-<harness pid>-<random>`); `release` removes it once the process is gone. */
export type ChildMemoryLimit = {
  dir: string;
  limitBytes: number;
  /** True when the kernel's OOM killer killed a process of this group (`oom_kill` > 0); read before {@link ChildMemoryLimit.release}. */
  killedForMemory(): boolean;
  release(): void;
};

/** The folder holding the children's groups, or undefined without a memory barrier. */
export function memoryCgroupParent(): string | undefined {
  return cached?.hierarchy?.parent;
}

/**
 * Puts process `pid` in a new memory cgroup limited to `limitBytes` (RAM, and RAM + swap where
 * accounted). Call before the process runs untrusted code.
 * @returns the group, or undefined when {@link ensureMemoryBarrier} found no hierarchy.
 * @throws {Error} when the group cannot be created or the process not moved into it.
 */
export function limitChildMemory(pid: number, limitBytes: number): ChildMemoryLimit | undefined {
  const hierarchy = cached?.hierarchy;
  if (!hierarchy) return undefined;
  const dir = path.join(hierarchy.parent, `child-${pid}-of-${process.pid}-${randomBytes(4).toString("hex")}`);
  fs.mkdirSync(dir);
  try {
    fs.writeFileSync(path.join(dir, hierarchy.limitFile), String(limitBytes));
    const swap = path.join(dir, hierarchy.swapFile);
    if (fs.existsSync(swap))
      fs.writeFileSync(swap, hierarchy.kind === "cgroup-v2" ? "0" : String(limitBytes));
    fs.writeFileSync(path.join(dir, "cgroup.procs"), String(pid));
  } catch (error) {
    fs.rmdirSync(dir);
    throw error;
  }
  return {
    dir,
    limitBytes,
    killedForMemory() {
      // v1: memory.oom_control, v2: memory.events; both count `oom_kill <n>` (Linux ≥ 4.13).
      const file = hierarchy.kind === "cgroup-v2" ? "memory.events" : "memory.oom_control";
      try {
        const count = /^oom_kill (\d+)$/m.exec(fs.readFileSync(path.join(dir, file), "utf8"))?.[1];
        return Number(count ?? 0) > 0;
      } catch {
        return false;
      }
    },
    release() {
      try {
        fs.rmdirSync(dir);
      } catch {
        // Still holds the process (a harness killed mid-execution): the next harness's sweep removes it.
      }
    },
  };
}
