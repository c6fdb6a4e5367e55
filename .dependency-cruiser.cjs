// Import structure of src/ (docs/ARCHITECTURE.md "Layers"): no circle, and each layer imports only layers below it.
// Bottom to top: errors, median → world, tasks, expr, validators, sandbox (the chain and the task specs) →
// models (+ runOptions) → results → protocol → reporting, viewer → run → cli, runBenchmark.
const layer = (dirs) => `^src/(${dirs.join("|")})(/|\\.ts$)`;
const above = {
  foundation: [
    "models",
    "runOptions",
    "results",
    "protocol",
    "reporting",
    "viewer",
    "run",
    "cli",
    "runBenchmark",
  ],
  models: ["results", "protocol", "reporting", "viewer", "run", "cli", "runBenchmark"],
  results: ["protocol", "reporting", "viewer", "run", "cli", "runBenchmark"],
  protocol: ["reporting", "viewer", "run", "cli", "runBenchmark"],
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
      layer(["errors", "median", "world", "tasks", "expr", "validators", "sandbox"]),
      "^src/tasks/select\\.ts$",
    ),
    upward("models", layer(["models", "runOptions"])),
    upward("results", layer(["results"])),
    upward("protocol", layer(["protocol"])),
    // The viewer (src/viewer) reads results as the report does: the same layer, below run and cli.
    upward("reporting", layer(["reporting", "viewer"])),
    upward("run", layer(["run"])),
    // ── Sandbox seams (src/sandbox; docs/SECURITY.md, "The barriers") ─────────────────────────────
    {
      name: "sandbox-rpc-policy-is-pure",
      comment:
        "the RPC policy (rpcPolicy.ts) decides from method and params alone: it imports only the JSON-RPC codes (jsonRpc.ts), no node: module, no server, no signer",
      severity: "error",
      from: { path: "^src/sandbox/rpcPolicy\\.ts$" },
      to: { pathNot: "^src/sandbox/jsonRpc\\.ts$" },
    },
    {
      name: "sandbox-jsonrpc-is-a-leaf",
      comment: "jsonRpc.ts (JSON-RPC shapes, EIP-1474 / EIP-1193 codes) imports nothing",
      severity: "error",
      from: { path: "^src/sandbox/jsonRpc\\.ts$" },
      to: {},
    },
    {
      name: "sandbox-signer-apart-from-server",
      comment:
        "the EIP-712 signer (typedDataSigner.ts) imports nothing of the guard's server or the sandbox but the JSON-RPC codes, and no node: module (no socket, no process)",
      severity: "error",
      from: { path: "^src/sandbox/typedDataSigner\\.ts$" },
      to: { path: "^src/", pathNot: "^src/sandbox/jsonRpc\\.ts$" },
    },
    {
      name: "sandbox-signer-no-node-builtins",
      comment: "the EIP-712 signer (typedDataSigner.ts) opens no socket and starts no process",
      severity: "error",
      from: { path: "^src/sandbox/typedDataSigner\\.ts$" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "sandbox-guard-apart-from-child",
      comment:
        "the RPC guard (rpcGuard.ts) serves requests and knows nothing of the sandboxed child: the child's side (rpcBridge.ts) calls the guard, never the reverse",
      severity: "error",
      from: { path: "^src/sandbox/rpc(Guard|Policy)\\.ts$" },
      to: {
        path: "^src/sandbox/(childProcess|childMessages|rpcBridge|warmPool|executeModule|exitClassification|uids)\\.ts$|^(node:)?child_process$",
      },
    },
    {
      name: "sandbox-pure-protocol-parts",
      comment:
        "the exit classification, the result types and the message parsing decide from what they are given: no node: module, no process, no pool",
      severity: "error",
      from: { path: "^src/sandbox/(exitClassification|executeResult|childMessages)\\.ts$" },
      to: {
        dependencyTypes: ["core"],
      },
    },
    {
      name: "sandbox-execution-layers",
      comment:
        "one execution is layered: executeModule.ts → warmPool.ts → childProcess.ts → its messages, bridge, classification and uids; no part imports a part above it",
      severity: "error",
      from: {
        path: "^src/sandbox/(childProcess|childMessages|rpcBridge|exitClassification|executeResult|uids|warmPool)\\.ts$",
      },
      to: { path: "^src/sandbox/(executeModule|warmPool)\\.ts$" },
    },
    {
      name: "sandbox-barriers-install-only",
      comment:
        "barriers.ts installs the run's OS barriers (installBarriers, called by the global setup) and nothing else: it starts no child, pool or guard",
      severity: "error",
      from: { path: "^src/sandbox/barriers\\.ts$" },
      to: {
        path: "^src/sandbox/(childProcess|warmPool|executeModule|rpcGuard)\\.ts$",
      },
    },
    // ── end of sandbox seams ──────────────────────────────────────────────────────────────────────
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
        "the Vega-Lite spec builders read no file, load no task, aggregate no run and render nothing (the workflow-pattern taxonomy is src/tasks/patterns.ts, a leaf)",
      severity: "error",
      from: { path: "^src/reporting/figureSpecs\\.ts$" },
      to: {
        path: [
          "^(node:)?(fs|fs/promises|child_process|module)$",
          "^src/tasks/",
          "^src/reporting/(figureData|figures|leaderboard)\\.ts$",
          "^src/results/(merge|load|folder|recorder)\\.ts$",
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
    // ---- validators: one idea per module (begin) ------------------------------------------------
    // Maths apart from the checks that use it, reads apart from checks, one ABI module, and the
    // effect ledger computed from the chain alone (docs/SCORING.md "Effect ledger").
    {
      name: "validators-maths-chain-free",
      comment:
        "v3Math.ts and bestExecutionMath.ts are exact, chain-free maths: they import no check, no read, no client (only the decimal parser and viem's encoding helpers)",
      severity: "error",
      from: { path: "^src/validators/(v3/v3Math|prices/bestExecutionMath)\\.ts$" },
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
        path: "^src/validators/(v3/v3PoolReads|prices/bestExecutionVenues|effects/ledger|effects/ledgerLogs|effects/ledgerReads|effects/ledgerWorld|effects/ledgerTypes|checks/holdingsSnapshot|checks/agentGrants|checks/unpaidTransfers)\\.ts$",
      },
      to: {
        path: "^src/validators/(v3/v3Prices|prices/v3TwapGuard|prices/v3Bounds|v3/v3Positions|prices/bestExecution|checks/holdings|prices/priceBounds|prices/quoteGate|checks/stateChecks|checks/logChecks|checks/txChecks|checks/batchChecks|checks/answerChecks|effects/effects|safety|registry)\\.ts$",
      },
    },
    {
      name: "validators-ledger-not-from-checks",
      comment:
        "the effect ledger is read the same way for every task, never from its checks: the ledger's modules do not import the check machinery",
      severity: "error",
      from: { path: "^src/validators/effects/ledger(Logs|Reads|World|Types)?\\.ts$" },
      to: { path: "^src/validators/(types|args|scopeOf|schema)\\.ts$" },
    },
    // ---- validators: one idea per module (end) --------------------------------------------------
    // ---- results recorder (begin) ----------------------------------------------------------------
    {
      name: "reporting-reads-no-task-folder",
      comment:
        'the report renders from results.json alone (docs/ARCHITECTURE.md "A table or a figure"): src/reporting never loads task folders (src/tasks/load.ts)',
      severity: "error",
      from: { path: "^src/reporting/" },
      to: { path: "^src/tasks/load\\.ts$" },
    },
    {
      name: "workflow-patterns-pure",
      comment:
        "the workflow-pattern taxonomy (src/tasks/patterns.ts) reads no file and imports nothing: results record it and the report reads it",
      severity: "error",
      from: { path: "^src/tasks/patterns\\.ts$" },
      to: {},
    },
    // ---- results recorder (end) ------------------------------------------------------------------
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
