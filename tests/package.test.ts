import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import type { RunResults } from "../src/results/types.ts";
import { PROJECT_ROOT, TASKS_DIR } from "../src/tasks/files.ts";
import { loadedModules } from "./helpers/loadedModules.ts";

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
/**
 * The caller's environment without `npm test`'s npm_* variables, which would steer the nested npm, and
 * without NODE_OPTIONS, where npm puts the repository's .npmrc `node-options` (an import of the
 * checkout's src/run/vitestArgv.mjs that a user's project does not have).
 */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== "NODE_OPTIONS"),
);
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

/** One empty project with the tarball installed, shared by the tests below (an install takes ~20 s). */
let dependent: Promise<string> | undefined;
const installed = () =>
  (dependent ??= (async () => {
    const project = path.join(work, "dependent");
    mkdirSync(project);
    writeFileSync(
      path.join(project, "package.json"),
      '{ "name": "dependent", "private": true, "type": "module" }\n',
    );
    await npm(["install", path.join(work, (await pack()).filename)], project);
    return project;
  })());

describe('the installed package (README "Install as a dependency")', () => {
  test("ships the compiled CLI, API and Vitest preset in dist/ with their declarations, and no build-only package as a dependency", async () => {
    const files = new Set((await pack()).files.map((f) => f.path));
    for (const file of [
      "dist/BUILT",
      "dist/cli.js",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/vitestPreset.js",
      "dist/vitestPreset.d.ts",
      "dist/run/reporter.js",
      "dist/models/registry.json",
      "dist/sandbox/childRunner.mjs",
      "vitest.mjs",
    ])
      expect(files.has(file), file).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      exports: Record<string, { types?: string } | string>;
    };
    for (const d of ["solc", "tsx", "typescript", "@openzeppelin/contracts"])
      expect(manifest.dependencies).not.toHaveProperty([d]);
    for (const entry of [".", "./vitest"]) {
      const types = (manifest.exports[entry] as { types: string }).types;
      expect(files.has(types.replace(/^\.\//, "")), types).toBe(true);
    }
  }, 600_000);

  test("its questbench answers --version and a usage error without Vite: the usage error from dist/cli.js", async () => {
    const project = await installed();
    const bin = path.join(project, "node_modules/evm-questbench/bin/questbench.mjs");
    const version = await loadedModules(bin, ["--version"], { cwd: project, env });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const usage = await loadedModules(bin, ["--model", "nosuch"], { cwd: project, env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^questbench: unknown model 'nosuch'/);
    expect(usage.files).toContain(path.join(project, "node_modules/evm-questbench/dist/cli.js"));
    for (const r of [version, usage])
      expect(r.files.filter((f) => /\/node_modules\/(vite|vitest|viem|ethers)\//.test(f))).toEqual([]);
  }, 900_000);

  test("npx questbench --model reference --split atomic scores 6200", async () => {
    const project = await installed();
    const out = path.join(project, "atomic-out");
    await run("npx", ["questbench", "--model", "reference", "--split", "atomic", "--out", out], {
      cwd: project,
      env,
      maxBuffer: 1 << 26,
    });
    const results = JSON.parse(readFileSync(path.join(out, "results.json"), "utf8")) as RunResults;
    expect(results.summary.atomic).toMatchObject({ score: 6200, max: 6200, passed: 62, count: 62 });
  }, 900_000);

  test("a plain Node script imports runBenchmark from the package and gets instances[0].score 100", async () => {
    const project = await installed();
    writeFileSync(
      path.join(project, "script.mjs"),
      `import { runBenchmark } from "evm-questbench";
const { results } = await runBenchmark({ model: "reference", tasks: ["erc20_approve"], out: "api-out" });
console.log(JSON.stringify({ score: results.instances[0].score }));
process.exit();
`,
    );
    const { stdout } = await run(process.execPath, ["script.mjs"], { cwd: project, env, maxBuffer: 1 << 26 });
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({ score: 100 });
  }, 900_000);

  test("the API's and the preset's declarations type-check in a strict TypeScript project", async () => {
    const project = await installed();
    writeFileSync(
      path.join(project, "use.ts"),
      `import { type RunResults, runBenchmark } from "evm-questbench";
import { questbench } from "evm-questbench/vitest";
const { results }: { results: RunResults | undefined } = await runBenchmark({ model: "reference", tasks: ["erc20_approve"] });
const score: number | undefined = results?.instances[0]?.score;
const config = questbench({ tasksDirs: ["my-pack"], model: "reference" });
console.log(score, config.test?.projects?.length);
`,
    );
    // The repository's TypeScript and Node types: the project has none of its own.
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          typeRoots: [path.join(PROJECT_ROOT, "node_modules/@types")],
          types: ["node"],
        },
        files: ["use.ts"],
      }),
    );
    const tsc = path.join(PROJECT_ROOT, "node_modules/typescript/bin/tsc");
    const r = await run(process.execPath, [tsc, "-p", project], { cwd: project, env }).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout, failed: true }),
    );
    expect(r.stdout).toBe("");
  }, 600_000);

  test("npx vitest with the documented preset runs a pack of one custom task", async () => {
    const project = await installed();
    const task = path.join(project, "my-pack", "my_approve");
    mkdirSync(task, { recursive: true });
    for (const file of ["task.json", "gold.ts"])
      writeFileSync(
        path.join(task, file),
        readFileSync(path.join(TASKS_DIR, "atomic/erc20_approve", file), "utf8").replace(
          /"id": "[^"]+"/,
          '"id": "my_approve"',
        ),
      );
    // README "Vitest in your project", with the run narrowed to the pack's task.
    writeFileSync(
      path.join(project, "vitest.config.ts"),
      `import { defineConfig } from "vitest/config";
import { questbench } from "evm-questbench/vitest";

export default defineConfig(questbench({ tasksDirs: ["my-pack"], model: "reference", tasks: ["my_approve"], out: "vitest-out" }));
`,
    );
    const r = await run("npx", ["vitest", "run"], {
      cwd: project,
      env: { ...env, CI: "1" },
      maxBuffer: 1 << 26,
    });
    expect(stripVTControlCharacters(r.stdout)).toMatch(/Tests\s+1 passed \(1\)/);
    expect(stripVTControlCharacters(r.stderr)).toMatch(/Custom atomic\s+100 \/ 100/);
    const results = JSON.parse(
      readFileSync(path.join(project, "vitest-out/results.json"), "utf8"),
    ) as RunResults;
    expect(results.instances.map((i) => [i.taskId, i.set, i.score])).toEqual([["my_approve", "custom", 100]]);
  }, 900_000);
});
