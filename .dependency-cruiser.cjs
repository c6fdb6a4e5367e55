// Import structure of src/ (README "Layout"): no circle, and each layer imports only layers below it.
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
    // --- Seams inside world/fork, reporting and run (one idea per module) -------------------------
    {
      name: "fork-phase-imports-phase",
      comment:
        'a fork provisioning phase imports no other phase and no orchestrator: provision.ts alone runs them, in order (README "Fork mode")',
      severity: "error",
      from: { path: "^src/world/fork/phases/" },
      to: { path: "^src/world/fork/(phases/|provision\\.ts$|boot\\.ts$)" },
    },
    {
      name: "fork-requirements-provision-nothing",
      comment:
        "the read-back of a provisioned fork imports no phase, no slot writer and no orchestrator: it reads the chain only",
      severity: "error",
      from: { path: "^src/world/fork/requirements\\.ts$" },
      to: { path: "^src/world/fork/(phases/|slots\\.ts$|provision\\.ts$|boot\\.ts$)" },
    },
    {
      name: "figure-specs-pure",
      comment:
        "the Vega-Lite spec builders and the workflow-pattern taxonomy read no file, load no task, aggregate no run and render nothing",
      severity: "error",
      from: { path: "^src/reporting/(figureSpecs|figurePatterns)\\.ts$" },
      to: {
        path: [
          "^(node:)?(fs|fs/promises|child_process|module)$",
          "^src/tasks/",
          "^src/reporting/(figureData|figures|merge|leaderboard)\\.ts$",
          "(^|/)node_modules/(vega|vega-lite|@resvg/resvg-js)/",
        ],
      },
    },
    {
      name: "figure-data-renders-nothing",
      comment:
        "the figures' aggregation builds no spec beyond its types and renders nothing (figures.ts renders)",
      severity: "error",
      from: { path: "^src/reporting/figureData\\.ts$" },
      to: { path: ["^src/reporting/figures\\.ts$", "(^|/)node_modules/(vega|vega-lite|@resvg/resvg-js)/"] },
    },
    {
      name: "infra-retry-knows-no-run",
      comment:
        "the infrastructure retry knows nothing of the run it serves (plan, resume, budget): the engine imports it, never the reverse",
      severity: "error",
      from: { path: "^src/run/infraRetry\\.ts$" },
      to: { path: "^src/run/" },
    },
    // --- end of the seams inside world/fork, reporting and run ------------------------------------
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
