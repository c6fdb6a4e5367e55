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
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
