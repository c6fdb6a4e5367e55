import { spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { InstanceResult, RunResults } from "../../src/results/types.ts";
import { PROJECT_ROOT } from "../../src/tasks/load.ts";

/** The CLI entry point (`npx questbench`). */
export const bin = path.join(PROJECT_ROOT, "bin/questbench.mjs");

/** A fresh temporary folder (an `--out`). */
export const tmp = (prefix = "qb-") => mkdtempSync(path.join(tmpdir(), prefix));

export const readResults = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8")) as RunResults;

/** The complete lines of `<dir>/instances.jsonl` (a line cut short by a kill is left out). */
export function readInstanceLines(dir: string): InstanceResult[] {
  const file = path.join(dir, "instances.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line) => {
      try {
        return line.trim() ? [JSON.parse(line) as InstanceResult] : [];
      } catch {
        return [];
      }
    });
}

export type CliRun = { code: number | null; signal: string | null; stdout: string; stderr: string };

/**
 * Runs `questbench ARGS` as a real process (no model keys in its environment); `onSpawn` gets its pid.
 * With `detached` it leads a process group of its own, as a shell job does (Ctrl-C = SIGINT to -pid).
 */
export function questbench(
  args: string[],
  onSpawn?: (pid: number) => void,
  options: {
    detached?: boolean;
    cwd?: string;
    /** Variables on top of the test's environment (after the model's and keys' are cleared). */
    env?: NodeJS.ProcessEnv;
    onStdout?: (text: string) => void;
  } = {},
): Promise<CliRun> {
  return new Promise<CliRun>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd ?? PROJECT_ROOT,
      detached: options.detached ?? false,
      env: {
        ...process.env,
        QUESTBENCH_MODEL: "",
        QUESTBENCH_OPTIONS: "",
        QUESTBENCH_CACHE_DIR: "",
        ANTHROPIC_API_KEY: "",
        OPENAI_API_KEY: "",
        ...options.env,
      },
    });
    onSpawn?.(child.pid!);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
      options.onStdout?.(String(d));
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Process ids of every live descendant of `pid`, with their command lines (from /proc). */
export function descendants(pid: number): { pid: number; cmdline: string }[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const out: { pid: number; cmdline: string }[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent)
      if (pp === p) {
        let cmdline = "";
        try {
          cmdline = readFileSync(`/proc/${child}/cmdline`, "utf8").replaceAll("\0", " ");
        } catch {}
        out.push({ pid: child, cmdline });
        walk(child);
      }
  };
  walk(pid);
  return out;
}

/**
 * Whether `pid` is a running process. A zombie (state Z: it has exited, and waits for whoever
 * inherited it to collect its status; after its parent died that is PID 1, which on some machines
 * collects late) is not running.
 */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return process.platform !== "linux";
  }
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition()` holds (polling every `everyMs`), or throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 120_000, everyMs = 50) {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A copy of the project (node_modules linked) that a test may edit without touching the real one. */
export function projectCopy(): string {
  const root = tmp("qb-project-");
  for (const entry of [
    "src",
    "tasks",
    "fixtures",
    "tests/benchmark",
    "vitest.config.ts",
    "tsconfig.json",
    "package.json",
  ])
    cpSync(path.join(PROJECT_ROOT, entry), path.join(root, entry), { recursive: true });
  symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(root, "node_modules"));
  // The sandbox runs model code as another user: it must be able to read the project (mkdtemp gives 0700).
  chmodSync(root, 0o755);
  return root;
}
