// Loads the project's TypeScript from plain Node: bin/questbench.mjs (the CLI) and index.mjs (the
// package's API) both import their entry through Vite's module runner, since Node runs no TypeScript
// from node_modules. Plain JavaScript, so nothing loads before it.
import { fileURLToPath } from "node:url";

/**
 * Imports `entry` (a path from the project root, e.g. `/src/cli.ts`) through a Vite module runner
 * rooted at the project folder: a module loader only (no HTTP server, no file watching, no
 * dependency pre-bundling).
 * @returns the module's namespace.
 */
export async function importProjectModule(entry) {
  const { createServer, createServerModuleRunner } = await import("vite");
  const server = await createServer({
    root: fileURLToPath(new URL("..", import.meta.url)),
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
