// Loads the project's modules from plain Node for bin/questbench.mjs (the CLI), index.mjs (the
// package's API) and vitest.mjs (the Vitest preset): the compiled JavaScript in dist/ (`npm run
// build`, which `npm pack` runs) when it is there and current, else the TypeScript of src/ through
// Vite's module runner (a checkout that was never built, or whose src/ changed since). Plain
// JavaScript, so nothing loads before it.
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = new URL("..", import.meta.url);

/**
 * Imports the entry module `name` (a path below src/ without its extension, e.g. `cli`): dist/<name>.js
 * when {@link builtIsCurrent}, else src/<name>.ts through {@link importProjectModule}.
 * @returns the module's namespace.
 */
export async function importEntry(name) {
  if (builtIsCurrent()) return import(new URL(`dist/${name}.js`, root).href);
  return importProjectModule(`/src/${name}.ts`);
}

/**
 * True when dist/ holds a finished build (dist/BUILT, written last by scripts/build.mjs) that no file
 * of src/ is newer than. An installed package (inside node_modules) is taken as built whenever
 * dist/BUILT is there: npm gives every file of a tarball the same time. In a checkout the walk over
 * src/ (~450 files) costs a few milliseconds and keeps an edit from running against a stale build.
 */
export function builtIsCurrent() {
  let built;
  try {
    built = statSync(new URL("dist/BUILT", root)).mtimeMs;
  } catch {
    return false;
  }
  if (fileURLToPath(root).split(/[\\/]/).includes("node_modules")) return true;
  const newer = (dir) =>
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const file = `${dir}/${entry.name}`;
      return entry.isDirectory() ? newer(file) : statSync(file).mtimeMs > built;
    });
  return !newer(fileURLToPath(new URL("src", root)));
}

/**
 * Imports `entry` (a path from the project root, e.g. `/src/cli.ts`) through a Vite module runner
 * rooted at the project folder: a module loader only (no HTTP server, no file watching, no
 * dependency pre-bundling).
 * @returns the module's namespace.
 */
export async function importProjectModule(entry) {
  const { createServer, createServerModuleRunner } = await import("vite");
  const server = await createServer({
    root: fileURLToPath(root),
    configFile: false,
    envFile: false,
    logLevel: "error",
    appType: "custom",
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
  return runner.import(entry);
}
