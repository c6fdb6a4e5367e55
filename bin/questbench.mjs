#!/usr/bin/env node
// The `questbench` binary: register the TypeScript loader, then hand argv to runCli (src/cli.ts).
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../src/cli.ts");
await runCli(process.argv.slice(2));
// Everything the run started is closed by now (Vitest, Anvil, the sandbox children), but a thread
// of the TypeScript loader or Vite lingers ~5 s before Node would exit on its own; exit as Vitest's
// own CLI does once a run is over.
process.exit();
