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
    // ---- validators: one idea per module (begin) ------------------------------------------------
    // Maths apart from the checks that use it, reads apart from checks, one ABI module, and the
    // effect ledger computed from the chain alone (docs/SCORING.md "Effect ledger").
    {
      name: "validators-maths-chain-free",
      comment:
        "v3Math.ts and bestExecutionMath.ts are exact, chain-free maths: they import no check, no read, no client (only the decimal parser and viem's encoding helpers)",
      severity: "error",
      from: { path: "^src/validators/(v3Math|bestExecutionMath)\\.ts$" },
      to: { pathNot: ["^src/expr/decimal\\.ts$", "^node_modules/viem/"] },
    },
    {
      name: "validators-abi-leaf",
      comment: "abi.ts holds contract fragments only: it imports nothing but viem",
      severity: "error",
      from: { path: "^src/validators/abi\\.ts$" },
      to: { pathNot: "^node_modules/viem/" },
    },
    {
      name: "validators-reads-know-no-check",
      comment:
        "the read modules (a V3 pool's reads, best execution's venues, the ledger's parts, the holdings snapshot, the agent's grants, unpaid BNB) never import a check module or the registry",
      severity: "error",
      from: {
        path: "^src/validators/(v3PoolReads|bestExecutionVenues|ledger|ledgerLogs|ledgerReads|ledgerWorld|ledgerTypes|holdingsSnapshot|agentGrants|unpaidTransfers)\\.ts$",
      },
      to: {
        path: "^src/validators/(v3Prices|v3TwapGuard|v3Bounds|v3Positions|bestExecution|holdings|priceBounds|quoteGate|stateChecks|logChecks|txChecks|batchChecks|answerChecks|effects|safety|registry)\\.ts$",
      },
    },
    {
      name: "validators-ledger-not-from-checks",
      comment:
        "the effect ledger is read the same way for every task, never from its checks: the ledger's modules do not import the check machinery",
      severity: "error",
      from: { path: "^src/validators/ledger(Logs|Reads|World|Types)?\\.ts$" },
      to: { path: "^src/validators/(types|args|scopeOf|schema)\\.ts$" },
    },
    // ---- validators: one idea per module (end) --------------------------------------------------
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
