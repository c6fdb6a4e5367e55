#!/usr/bin/env node
// The `questbench` binary: loads src/cli.ts through Vite's module runner and hands it argv.
//
// Not through a process-wide TypeScript loader (tsx's `register()`, as before): Node runs such module
// hooks on a thread of their own and every import of the process crosses it, node_modules included, so
// Vitest, Vite and what the global setup loads took 3–4× the CPU (docs/PERFORMANCE.md "The author's loop"). Vite's runner
// transforms only our own .ts files and imports packages natively; the run loads Vite for Vitest anyway.
import { fileURLToPath } from "node:url";
import { createServer, createServerModuleRunner } from "vite";
// npm restores the sandbox runtime's `node` link in node_modules/.bin at any later `npm install` (it
// repairs a package's missing bin links) without rerunning this package's postinstall: remove it again.
import "../src/sandbox/unlinkRuntimeBin.mjs";

const server = await createServer({
  root: fileURLToPath(new URL("..", import.meta.url)),
  configFile: false,
  envFile: false,
  logLevel: "error",
  appType: "custom",
  // A module loader only: no HTTP server, no file watching, no dependency pre-bundling.
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
const { runCli } = await runner.import("/src/cli.ts");
await runCli(process.argv.slice(2));
// Everything the run started is closed by now (Vitest, Anvil, the sandbox children), but a handle of
// Vite's or Vitest's lingers ~5 s before Node would exit on its own; exit as Vitest's own CLI does
// once a run is over.
process.exit();
