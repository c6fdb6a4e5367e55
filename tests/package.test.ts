import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import type { RunResults } from "../src/results/types.ts";
import { PROJECT_ROOT } from "../src/tasks/files.ts";

// The package as a user's project gets it: the tarball `npm pack` makes, installed into an empty
// project from the local npm cache (the CI machine's own `npm install` filled it; the registry is the
// fallback), then used. Installing it must change nothing outside it (README "Install as a
// dependency").
const run = promisify(execFile);
const work = mkdtempSync(path.join(tmpdir(), "qb-package-"));
// As root the sandbox runs model code under unprivileged uids that must reach the installed runtime
// (docs/SECURITY.md): mkdtemp's folder is private to its owner.
chmodSync(work, 0o755);
afterAll(() => rmSync(work, { recursive: true, force: true }), 300_000);
/** The caller's environment without `npm test`'s npm_* variables, which would steer the nested npm. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
// One quick retry: offline (CI's private network namespace) a packument the cache lacks, such as an
// optional peer's, fails at once instead of waiting out npm's default backoff (18 misses took 8 minutes).
const npm = (args: string[], cwd: string) =>
  run(
    "npm",
    [
      ...args,
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--fetch-retries=1",
      "--fetch-retry-mintimeout=500",
      "--fetch-retry-maxtimeout=1000",
    ],
    { cwd, env, maxBuffer: 1 << 26 },
  );

type PackedFile = { path: string };
let packed: { filename: string; files: PackedFile[] } | undefined;
async function pack() {
  packed ??= (
    JSON.parse((await npm(["pack", "--json", "--pack-destination", work], PROJECT_ROOT)).stdout) as [
      { filename: string; files: PackedFile[] },
    ]
  )[0];
  return packed;
}

describe("the packed tarball", () => {
  test("holds LICENSE and every document of the repository the README names", async () => {
    const files = new Set((await pack()).files.map((f) => f.path));
    const readme = readFileSync(path.join(PROJECT_ROOT, "README.md"), "utf8");
    // Markdown links and `docs/…`, `tasks/…` paths in the text, as far as they exist in the checkout.
    const named = new Set([
      ...[...readme.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]!).filter((p) => !/^[a-z]+:/.test(p)),
      ...[...readme.matchAll(/\b((?:docs|tasks)\/[\w./-]+\.md)\b/g)].map((m) => m[1]!),
    ]);
    const docs = [...named].filter((p) => existsSync(path.join(PROJECT_ROOT, p)));
    expect(docs).toContain("docs/SECURITY.md");
    expect(docs.filter((p) => !files.has(p))).toEqual([]);
    expect(files.has("LICENSE")).toBe(true);
    expect(readFileSync(path.join(PROJECT_ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License/);
  }, 600_000);

  test("installs into an empty project without a `node` link in its .bin, keeps the user's Node for npm run, and runs a task", async () => {
    const project = path.join(work, "project");
    mkdirSync(project);
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({
        name: "user-project",
        private: true,
        scripts: { "which-node": "node -p process.version" },
      }),
    );
    const tarball = path.join(work, (await pack()).filename);
    await npm(["install", tarball], project);
    const nodeLink = path.join(project, "node_modules/.bin/node");
    expect(existsSync(nodeLink)).toBe(false);
    // The bundled sandbox runtime is there all the same (src/sandbox/sandboxRuntime.ts finds it by package).
    expect(
      existsSync(path.join(project, `node_modules/node-${process.platform}-${process.arch}/bin/node`)),
    ).toBe(true);
    const userNode = (await run("node", ["-p", "process.version"], { env })).stdout.trim();
    expect((await npm(["run", "-s", "which-node"], project)).stdout.trim()).toBe(userNode);

    // npm links the runtime's `node` again at the user's next `npm install` (it repairs every missing bin
    // link and does not rerun this package's postinstall); the next questbench command removes it.
    const tiny = path.join(work, "tiny");
    mkdirSync(tiny);
    writeFileSync(path.join(tiny, "package.json"), JSON.stringify({ name: "tiny", version: "1.0.0" }));
    await npm(["install", tiny], project);
    const out = path.join(project, "out");
    await run("npx", ["questbench", "--model", "reference", "--tasks", "erc20_approve", "--out", out], {
      cwd: project,
      env,
    });
    const results = JSON.parse(readFileSync(path.join(out, "results.json"), "utf8")) as RunResults;
    expect(results.instances.map((i) => [i.taskId, i.score])).toEqual([["erc20_approve", 100]]);
    expect(existsSync(nodeLink)).toBe(false);
    expect((await npm(["run", "-s", "which-node"], project)).stdout.trim()).toBe(userNode);
    // The run kept its caches in the project's .questbench/, not in the installed package.
    expect(existsSync(path.join(project, "node_modules/evm-questbench/.questbench"))).toBe(false);
    expect(existsSync(path.join(project, ".questbench"))).toBe(true);
  }, 900_000);
});
