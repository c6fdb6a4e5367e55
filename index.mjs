// The package's entry for `import … from "evm-questbench"` (src/index.ts; README "Programmatic use"):
// the compiled dist/index.js in the published package, the TypeScript through Vite's module runner in
// a checkout that was not built (src/moduleRunner.mjs).
import { importEntry } from "./src/moduleRunner.mjs";

const api = await importEntry("index");

export const { runBenchmark, loadResults, writeReport, validatePack, listTasks, DEFAULT_OPTIONS } = api;
