// Import structure of src/ (docs/ARCHITECTURE.md "Layers"): no circle, and each layer imports only layers below it.
// Bottom to top: errors → world, tasks, expr, validators, sandbox (the chain and the task specs) →
// models (+ runOptions) → results → protocol → reporting → run → cli, runBenchmark.
const layer = (dirs) => `^src/(${dirs.join("|")})(/|\\.ts$)`;
const above = {
  foundation: ["models", "runOptions", "results", "protocol", "reporting", "run", "cli", "runBenchmark"],
  models: ["results", "protocol", "reporting", "run", "cli", "runBenchmark"],
  results: ["protocol", "reporting", "run", "cli", "runBenchmark"],
  protocol: ["reporting", "run", "cli", "runBenchmark"],
  reporting: ["run", "cli", "runBenchmark"],
  run: ["cli", "runBenchmark"],
};
const upward = (name, from, pathNot) => ({
  name: `${name}-imports-upward`,
  comment: `${name} sits below ${above[name].join(", ")} and must not import them`,
  severity: "error",
  from: { path: from, ...(pathNot ? { pathNot } : {}) },
  to: { path: layer(above[name]) },
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "an import circle in src/",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    // tasks/select.ts throws the CLI's UsageError for an unknown --tasks id (it lives in runOptions.ts).
    upward(
      "foundation",
      layer(["errors", "world", "tasks", "expr", "validators", "sandbox"]),
      "^src/tasks/select\\.ts$",
    ),
    upward("models", layer(["models", "runOptions"])),
    upward("results", layer(["results"])),
    upward("protocol", layer(["protocol"])),
    upward("reporting", layer(["reporting"])),
    upward("run", layer(["run"])),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
