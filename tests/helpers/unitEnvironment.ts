// Setup file of the unit project (vitest.config.ts). A caller's shell may hold a benchmark run's
// options (QUESTBENCH_TASKS=…, QUESTBENCH_MODEL=…, README "Running"): the unit suite must behave the
// same with or without them, in its workers and in every child process they spawn from
// process.env. Tests that need a variable set it themselves. QUESTBENCH_FUZZ_SEED is the suite's own
// knob (tests/parse.fuzz.test.ts), so it stays.
const KEEP = new Set(["QUESTBENCH_FUZZ_SEED"]);
for (const name of Object.keys(process.env))
  if (name.startsWith("QUESTBENCH_") && !KEEP.has(name)) delete process.env[name];
