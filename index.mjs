// The package's entry for `import … from "evm-questbench"` (src/index.ts; README "Programmatic use").
// The package ships TypeScript, which Node does not run from node_modules: the API's modules are
// loaded through Vite's module runner, as bin/questbench.mjs loads the CLI's.
import { fileURLToPath } from "node:url";
import { createServer, createServerModuleRunner } from "vite";

const server = await createServer({
  root: fileURLToPath(new URL(".", import.meta.url)),
  configFile: false,
  envFile: false,
  logLevel: "error",
  appType: "custom",
  // A module loader only: no HTTP server, no file watching, no dependency pre-bundling.
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
const api = await runner.import("/src/index.ts");

export const { runBenchmark, loadResults, writeReport, validatePack, listTasks, DEFAULT_OPTIONS } = api;
