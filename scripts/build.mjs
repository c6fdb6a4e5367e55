// `npm run build` (and `prepack`, so `npm pack` and `npm publish` ship it): src/ compiled to dist/,
// one JavaScript file per TypeScript file in the same tree (README "Install as a dependency"), so the
// installed package's CLI and API start on plain Node, without Vite or a TypeScript loader.
//
// - JavaScript for every module of src/ (tsc, tsconfig.build.json: relative `.ts` imports rewritten
//   to `.js`). dist/ keeps src/'s depth, so a module's paths relative to its own file (`../..` as the
//   package root, `./registry.json`, `./static/`) mean the same from dist/.
// - src/'s other files copied beside them (JSON, the sandbox child's .mjs, the viewer's static files).
// - Declarations only for the public entries (index.ts, vitestPreset.ts) and the files their types
//   import: some internal modules' inferred types name another package's internals (TS2742, e.g. viem's
//   chain type), which a consumer could not resolve anyway. An error in those files fails the build.
// - dist/BUILT last: bin/questbench.mjs and index.mjs use dist/ only while no file of src/ is newer.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

// `--root DIR` builds another copy of the project (a test's).
const rootFlag = process.argv.indexOf("--root");
const root =
  rootFlag > 0 ? path.resolve(process.argv[rootFlag + 1]) : fileURLToPath(new URL("..", import.meta.url));
const src = path.join(root, "src");
const dist = path.join(root, "dist");
const PUBLIC_ENTRIES = ["index.d.ts", "vitestPreset.d.ts"];

const started = performance.now();
rmSync(dist, { recursive: true, force: true });

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.build.json"), {}, host);
if (config.errors.length) fail(config.errors);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const emitted = program.emit();

// Every non-TypeScript file of src/, at the same path under dist/.
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
// (Not the module runner: it loads dist/ or src/ and is imported from src/.)
for (const file of walk(src))
  if ((!file.endsWith(".ts") || file.endsWith(".d.ts")) && !file.endsWith("moduleRunner.mjs"))
    cpSync(file, path.join(dist, path.relative(src, file)));

// The declarations the public entries reach through their imports; the others are removed.
const reached = new Set();
const visit = (file) => {
  if (reached.has(file) || !existsSync(file)) return;
  reached.add(file);
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/(?:from\s+|import\(\s*)["'](\.{1,2}\/[^"']+)["']/g)) {
    const target = path.resolve(path.dirname(file), m[1]);
    // Declarations keep the sources' `.ts` specifiers, which TypeScript resolves to the `.d.ts`.
    visit(target.replace(/\.(ts|js)$/, ".d.ts").replace(/\.mjs$/, ".d.mts"));
  }
};
for (const entry of PUBLIC_ENTRIES) visit(path.join(dist, entry));
for (const file of walk(dist)) if (/\.d\.ts$/.test(file) && !reached.has(file)) rmSync(file);

const errors = emitted.diagnostics.filter((d) => {
  if (!d.file) return true;
  const declaration = path.join(dist, path.relative(src, d.file.fileName)).replace(/\.ts$/, ".d.ts");
  return reached.has(declaration);
});
if (errors.length) fail(errors);

writeFileSync(path.join(dist, "BUILT"), `${new Date().toISOString()}\n`);
const files = walk(dist).length;
// On stderr: stdout of `npm pack --json`, which runs this as prepack, must stay its JSON alone.
console.error(`build: ${files} files in dist/ (${((performance.now() - started) / 1000).toFixed(1)} s)`);

function fail(diagnostics) {
  const format = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  };
  console.error(ts.formatDiagnostics(diagnostics, format));
  process.exit(1);
}
