import { execFile, execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import type { RunResults } from "../src/results/types.ts";
import { sandboxRuntimePackage } from "../src/sandbox/sandboxRuntime.ts";
import { PROJECT_ROOT } from "../src/tasks/load.ts";

// A clone in a folder no other uid can traverse (a home like /root, mode 700), run as root: the
// sandbox's uids cannot reach the clone, so the runtime, the bundles and the children's folders are
// staged under the temp folder (src/sandbox/stage.ts, docs/SECURITY.md "Files").

const run = promisify(execFile);
const root = process.getuid?.() === 0;
const TASKS = ["bnb_transfer_basic", "erc20_transfer_fixed", "wbnb_deposit", "composite_wrap_unwrap_cycle"];

/** The project's files (tracked and new, not ignored) copied under `dir`; node_modules linked in. */
function cloneInto(dir: string): void {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    try {
      copyFileSync(path.join(PROJECT_ROOT, file), path.join(dir, file));
    } catch {
      // Listed by git but deleted in the work tree.
    }
  }
  // Every package linked, except the sandbox runtime, whose binary must itself sit in the private
  // folder (as in a real clone there): hard-linked, or copied where /tmp is another file system.
  const modules = path.join(dir, "node_modules");
  mkdirSync(modules);
  const runtime = sandboxRuntimePackage();
  for (const name of readdirSync(path.join(PROJECT_ROOT, "node_modules"))) {
    if (name !== runtime)
      symlinkSync(path.join(PROJECT_ROOT, "node_modules", name), path.join(modules, name));
  }
  const binary = path.join(modules, runtime, "bin", "node");
  mkdirSync(path.dirname(binary), { recursive: true });
  copyFileSync(
    path.join(PROJECT_ROOT, "node_modules", runtime, "package.json"),
    path.join(modules, runtime, "package.json"),
  );
  try {
    linkSync(path.join(PROJECT_ROOT, "node_modules", runtime, "bin", "node"), binary);
  } catch {
    copyFileSync(path.join(PROJECT_ROOT, "node_modules", runtime, "bin", "node"), binary);
    chmodSync(binary, 0o755);
  }
}

describe("root anywhere", () => {
  test.skipIf(!root)(
    "a clone in a mode-700 home, run as root, scores the reference 100 on every sampled instance (skipped unless root: only root hands children uids of their own)",
    async () => {
      const home = mkdtempSync(path.join(tmpdir(), "qb-root-home-"));
      chmodSync(home, 0o700);
      const clone = path.join(home, "questbench");
      try {
        cloneInto(clone);
        // The sandbox's uids really cannot traverse the home (what made every instance infra_error).
        expect(() =>
          execFileSync("runuser", ["-u", "nobody", "--", "test", "-r", path.join(clone, "package.json")]),
        ).toThrow();
        const out = path.join(home, "out");
        const result = await run(
          process.execPath,
          [
            path.join(clone, "bin/questbench.mjs"),
            "--model",
            "reference",
            "--tasks",
            TASKS.join(","),
            "--out",
            out,
          ],
          {
            cwd: clone,
            env: { ...process.env, QUESTBENCH_OPTIONS: "", QUESTBENCH_MODEL: "" },
            maxBuffer: 16 * 2 ** 20,
          },
        ).catch((error: { stdout: string; stderr: string; code: number }) => error);
        const printed = `${result.stdout}\n${result.stderr}`;
        expect(existsSync(path.join(out, "results.json")), printed).toBe(true);
        const results = JSON.parse(readFileSync(path.join(out, "results.json"), "utf8")) as RunResults;
        expect(
          results.instances.map((i) => [i.taskId, i.score, i.failure?.reason ?? null]),
          printed,
        ).toEqual(TASKS.map((task) => [task, 100, null]));
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
    600_000,
  );
});
