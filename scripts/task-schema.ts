// Regenerates tasks/task.schema.json's `definitions.check` from the check definitions
// (src/validators: description, argument schemas, example). `--check` exits 1 if the file is stale
// (compared as JSON: Biome may format the file).

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { PROJECT_ROOT, TASKS_DIR } from "../src/tasks/load.ts";
import { taskSchema } from "../src/validators/schema.ts";

const file = path.join(TASKS_DIR, "task.schema.json");
const current = readFileSync(file, "utf8");
const parsed = JSON.parse(current);
const generated = taskSchema(parsed);
if (process.argv.includes("--check")) {
  if (!isDeepStrictEqual(generated, parsed)) {
    console.error("tasks/task.schema.json is stale: run npm run schema:tasks");
    process.exit(1);
  }
} else {
  writeFileSync(file, `${JSON.stringify(generated, null, 2)}\n`);
  // In Biome's format, so `biome check .` passes on the file as written (as scripts/results-schema.mjs).
  execFileSync(path.join(PROJECT_ROOT, "node_modules/.bin/biome"), ["format", "--write", file], {
    stdio: "ignore",
  });
}
