#!/usr/bin/env node
// Writes src/results/results.schema.json, the JSON Schema of results.json, from the TypeScript
// types in src/results/types.ts (one source of truth). `--check` fails when the file is stale.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createGenerator } from "ts-json-schema-generator";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "src/results/results.schema.json");

export function generateResultsSchema() {
  const schema = createGenerator({
    path: path.join(root, "src/results/types.ts"),
    tsconfig: path.join(root, "tsconfig.json"),
    type: "RunResults",
    skipTypeCheck: true,
  }).createSchema("RunResults");
  return `${JSON.stringify({ $id: "https://evm-questbench/results.schema.json#v1", title: "EVM-QuestBench results.json (schemaVersion 1)", ...schema }, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = generateResultsSchema();
  if (process.argv.includes("--check")) {
    // Compared as JSON: Biome may format the file.
    const stale = JSON.stringify(JSON.parse(readFileSync(out, "utf8"))) !== JSON.stringify(JSON.parse(text));
    console.log(
      stale
        ? `${path.relative(root, out)} is stale: run npm run schema:results`
        : `${path.relative(root, out)} is up to date`,
    );
    process.exitCode = stale ? 1 : 0;
  } else {
    writeFileSync(out, text);
    // In Biome's format, so `biome check .` passes on the file as written.
    execFileSync(path.join(root, "node_modules/.bin/biome"), ["format", "--write", out], { stdio: "ignore" });
    console.log(`wrote ${path.relative(root, out)}`);
  }
}
