#!/usr/bin/env node
// The `questbench` binary: register the TypeScript loader, then hand argv to runCli (src/cli.ts).
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../src/cli.ts");
await runCli(process.argv.slice(2));
