#!/usr/bin/env node
// The `questbench` binary: answers `--help` and `--version` itself, then loads the CLI (src/cli.ts)
// and hands it argv: the compiled dist/cli.js in the published package (`npm run build`), the
// TypeScript through Vite's module runner in a checkout that was not built (src/moduleRunner.mjs).
//
// `--help` and `--version` need no module of the harness: answered from plain JavaScript first.
//
// Not through a process-wide TypeScript loader (tsx's `register()`, as before): Node runs such module
// hooks on a thread of their own and every import of the process crosses it, node_modules included, so
// Vitest, Vite and what the global setup loads took 3–4× the CPU (docs/PERFORMANCE.md "The author's loop").
import { readFileSync } from "node:fs";
// npm restores the sandbox runtime's `node` link in node_modules/.bin at any later `npm install` (it
// repairs a package's missing bin links) without rerunning this package's postinstall: remove it again.
import "../src/sandbox/unlinkRuntimeBin.mjs";

const argv = process.argv.slice(2);
// The same tests, in the same order, as runCli's (src/cli.ts): --help anywhere wins.
if (argv.includes("--help") || argv.includes("-h")) {
  const { HELP } = await import("../src/cliHelp.mjs");
  console.log(HELP);
} else if (argv.includes("--version")) {
  console.log(JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version);
} else {
  const { importEntry } = await import("../src/moduleRunner.mjs");
  const { runCli } = await importEntry("cli");
  await runCli(argv);
  // Everything the run started is closed by now (Vitest, Anvil, the sandbox children), but a handle of
  // Vite's or Vitest's lingers ~5 s before Node would exit on its own; exit as Vitest's own CLI does
  // once a run is over.
  process.exit();
}
