// The package's entry for `import … from "evm-questbench"` (src/index.ts; README "Programmatic use").
// The package ships TypeScript, which Node does not run from node_modules: the API's modules are
// loaded through Vite's module runner, as bin/questbench.mjs loads the CLI's.
import { importProjectModule } from "./src/moduleRunner.mjs";

const api = await importProjectModule("/src/index.ts");

export const { runBenchmark, loadResults, writeReport, validatePack, listTasks, DEFAULT_OPTIONS } = api;
