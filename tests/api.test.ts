import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { PROJECT_ROOT } from "../src/tasks/files.ts";

// The programmatic API (README "Programmatic use") as a dependent project's plain Node script reaches
// it: `import … from "evm-questbench"`, resolved through package.json's `exports`.
test("a plain Node script imports runBenchmark and loadResults from the package and gets the results", async () => {
  const project = mkdtempSync(path.join(tmpdir(), "qb-api-"));
  mkdirSync(path.join(project, "node_modules"));
  symlinkSync(PROJECT_ROOT, path.join(project, "node_modules", "evm-questbench"));
  writeFileSync(path.join(project, "package.json"), '{ "name": "uses-questbench", "type": "module" }\n');
  writeFileSync(
    path.join(project, "script.mjs"),
    `import { loadResults, runBenchmark } from "evm-questbench";
const { results, exitCode, resultsPath } = await runBenchmark({ model: "reference", tasks: ["erc20_approve"], out: "out" });
const [loaded] = loadResults("out");
console.log(JSON.stringify({ score: results?.instances[0]?.score, exitCode, resultsPath, loaded: loaded.results.instances.map((i) => [i.taskId, i.score]) }));
process.exit();
`,
  );
  const { stdout } = await promisify(execFile)(process.execPath, ["script.mjs"], {
    cwd: project,
    env: { ...process.env, QUESTBENCH_OPTIONS: "", QUESTBENCH_MODEL: "" },
  });
  expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({
    score: 100,
    exitCode: 0,
    resultsPath: path.join(project, "out", "results.json"),
    loaded: [["erc20_approve", 100]],
  });
}, 600_000);
