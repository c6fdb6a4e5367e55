/**
 * The Node built-in modules a sandboxed module may load, each with why (docs/SECURITY.md, "Built-in
 * modules"). Everything else is refused inside the child at every door — static and dynamic
 * `import`, `require`, `import.meta.resolve`, `process.getBuiltinModule` — before the model's code
 * runs (see childRunner.mjs), and the permission model stands behind that as a second layer.
 *
 * Found by running, not by guessing: the ethers and viem bundles (libraryBundle.ts, built from their
 * browser builds) load no built-in at all, and no reference answer of the task set imports one. The
 * list is what plain TypeScript written for Node imports in place of a global, none of it able to
 * open a file, a socket, a process or a thread:
 */
export const SANDBOX_BUILTINS: Readonly<Record<string, string>> = {
  assert: "assertions (`assert.ok`, `assert.equal`) that models write as guards",
  "assert/strict": "the strict form of the same",
  buffer: "`Buffer` (also a global): hex and byte handling",
  crypto:
    "hashes and random bytes (`createHash`, `randomBytes`, also `globalThis.crypto`); its one door to native code, `setEngine`, is refused by the runner and by the permission model",
  events: "`EventEmitter`, `once`: plain in-process events",
  string_decoder: "bytes to text",
  timers: "`setTimeout` and friends (also globals)",
  "timers/promises": "`await setTimeout(ms)`: waiting for a block or a receipt",
  url: "`URL`, `URLSearchParams` (also globals)",
  util: "`inspect`, `format`, `promisify`, `types`: formatting and helpers",
  "util/types": "type checks (`isUint8Array`, …)",
};

/**
 * Flags that remove experimental built-ins and globals the sandbox does not need, with why. Only
 * those the sandbox runtime accepts are given (an older or newer Node may lack some).
 */
export const SANDBOX_NODE_FLAGS: Readonly<Record<string, string>> = {
  "--no-experimental-sqlite":
    "node:sqlite opens database files the permission model does not check (read and write)",
  "--no-experimental-ffi": "node:ffi calls native functions",
  "--no-experimental-websocket": "the WebSocket global: a network API no answer needs",
  "--no-experimental-global-navigator": "the navigator global",
  "--no-experimental-webstorage": "localStorage / sessionStorage, backed by a file",
  "--no-addons": "native addons (also refused by the permission model)",
  "--disable-sigusr1": "no inspector started by a signal",
  "--no-global-search-paths": "no module lookups in $HOME/.node_modules or the global folders",
};
