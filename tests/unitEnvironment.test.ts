import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { PROJECT_ROOT } from "../src/tasks/files.ts";

// The unit suite must not depend on a benchmark run's QUESTBENCH_* variables left in the caller's
// shell (tests/helpers/unitEnvironment.ts strips them from every unit worker).
const SEES_NONE = "a unit worker sees no QUESTBENCH run variable of the caller";

test(SEES_NONE, () => {
  const leaked = Object.keys(process.env).filter(
    (k) => k.startsWith("QUESTBENCH_") && k !== "QUESTBENCH_FUZZ_SEED",
  );
  expect(leaked).toEqual([]);
});

test("a unit run started with QUESTBENCH_TASKS and QUESTBENCH_MODEL set passes that check", async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      path.join(PROJECT_ROOT, "node_modules/vitest/vitest.mjs"),
      "run",
      "--project",
      "unit",
      "tests/unitEnvironment.test.ts",
      "-t",
      SEES_NONE,
    ],
    {
      cwd: PROJECT_ROOT,
      // A model without its key would stop a benchmark run at once: the unit run must not even look.
      env: {
        ...process.env,
        QUESTBENCH_TASKS: "erc20_approve",
        QUESTBENCH_MODEL: "claude-sonnet",
        ANTHROPIC_API_KEY: "",
        CI: "1",
      },
    },
  );
  expect(stdout).toMatch(/1 passed/);
});
