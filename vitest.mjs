// The package's Vitest entry, `import { questbench } from "evm-questbench/vitest"` (src/vitestPreset.ts;
// README "Vitest in your project"): the compiled dist/vitestPreset.js in the published package, the
// TypeScript through Vite's module runner in a checkout that was not built (src/moduleRunner.mjs).
import { importEntry } from "./src/moduleRunner.mjs";

export const { questbench } = await importEntry("vitestPreset");
