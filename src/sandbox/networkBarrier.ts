import { execFileSync } from "node:child_process";
import { sandboxRuntime } from "./sandboxRuntime.ts";

/**
 * The uids sandboxed children run as when the harness is root: each child gets one of its own from
 * this range, so no module can signal (kill) another execution's process, which Node's permission
 * model does not prevent and a shared uid would allow. No account exists for these uids.
 */
export const SANDBOX_UIDS = { first: 600_000, count: 65_536 } as const;
/** The group every sandboxed child runs in (`nogroup`): its private folder is readable by this group. */
export const SANDBOX_GID = 65534;

/**
 * The loopback address RPC guards listen on. Anvil and everything else of the harness listen on
 * 127.0.0.1, so a firewall rule can let sandboxed code reach the guards and nothing else.
 * (Linux routes all of 127.0.0.0/8 to loopback; elsewhere the guard stays on 127.0.0.1.)
 */
export const GUARD_HOST = process.platform === "linux" ? "127.0.0.2" : "127.0.0.1";

const CHAIN = "QUESTBENCH_SANDBOX";

/**
 * Which barrier keeps sandboxed code off the network (recorded in the run manifest):
 * - `node-permission`: the sandbox's Node (≥ 25) refuses every socket under `--permission`; the
 *   module reaches its RPC guard only through the pipe the harness serves (`detail` also says
 *   whether the iptables rule stands behind it as defence in depth);
 * - `iptables-owner`: only the uid + iptables rule (the sandbox's Node is older than 25);
 * - `none`: neither.
 */
export type NetworkBarrier = { kind: "node-permission" | "iptables-owner" | "none"; detail: string };

let cached: { barrier: NetworkBarrier; runtime: string } | undefined;
let cachedIptables: NetworkBarrier | undefined;

/**
 * The network barrier in force for sandboxed children, installing the iptables rule when the
 * harness is root on Linux (see {@link ensureIptablesBarrier}). Computed once per process.
 */
export function ensureNetworkBarrier(): NetworkBarrier {
  const runtime = sandboxRuntime();
  if (cached?.runtime === runtime.execPath) return cached.barrier;
  const iptables = ensureIptablesBarrier();
  const barrier: NetworkBarrier = runtime.deniesNetwork
    ? {
        kind: "node-permission",
        detail: `Node ${runtime.version} (${runtime.source}) under --permission without --allow-net: no sockets; providerUrl is served over the child's pipe${iptables.kind === "iptables-owner" ? `; defence in depth: ${iptables.detail}` : ""}`,
      }
    : iptables;
  cached = { barrier, runtime: runtime.execPath };
  return barrier;
}

function run(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Before Node 25 the permission model does not restrict the network, so model code could scan
 * 127.0.0.1 for Anvil and call `anvil_setBalance` around the guard. When the harness is root on
 * Linux with iptables, sandboxed children (uids of {@link SANDBOX_UIDS}) may open TCP connections to {@link GUARD_HOST}
 * only: every other packet they send (other loopback ports, other hosts, UDP/DNS, IPv6) is rejected.
 * The rules live in their own chain, installed once and idempotently.
 * @returns the barrier in force: `iptables-owner`, or `none` with the reason.
 */
export function ensureIptablesBarrier(): NetworkBarrier {
  if (cachedIptables) return cachedIptables;
  cachedIptables = installIptables();
  return cachedIptables;
}

function installIptables(): NetworkBarrier {
  if (process.platform !== "linux" || process.getuid?.() !== 0) {
    return {
      kind: "none",
      detail: "not root on Linux: sandboxed code runs as the harness's user without a network barrier",
    };
  }
  // Several harness processes (Vitest workers, CLI runs) start at once: the chain is built under a
  // file lock, and only when its rules are not already exactly in place, so no process ever
  // rebuilds it under another's running sandbox (a flush racing an append could order REJECT
  // before the guard's RETURN and refuse every connection).
  const install = (tool: "iptables" | "ip6tables", allowGuard: boolean): boolean => {
    if (!run(tool, ["-L", "OUTPUT", "-n"])) return false;
    const rules = [
      ...(allowGuard ? [`-A ${CHAIN} -d ${GUARD_HOST}/32 -p tcp -j RETURN`] : []),
      `-A ${CHAIN} -j REJECT --reject-with ${tool === "iptables" ? "icmp-port-unreachable" : "icmp6-port-unreachable"}`,
    ];
    const jump = `OUTPUT -m owner --uid-owner ${SANDBOX_UIDS.first}-${SANDBOX_UIDS.first + SANDBOX_UIDS.count - 1} -j ${CHAIN}`;
    const script = [
      `current=$(${tool} -S ${CHAIN} 2>/dev/null | grep -v '^-N ')`,
      `wanted='${rules.join("\n")}'`,
      `if [ "$current" != "$wanted" ]; then`,
      `  ${tool} -N ${CHAIN} 2>/dev/null; ${tool} -F ${CHAIN} || exit 1`,
      ...rules.map((r) => `  ${tool} ${r} || exit 1`),
      "fi",
      `${tool} -C ${jump} 2>/dev/null || ${tool} -I ${jump}`,
    ].join("\n");
    return run("flock", [`/tmp/questbench-${tool}.lock`, "sh", "-c", script]);
  };
  if (!install("iptables", true)) {
    return {
      kind: "none",
      detail:
        "iptables is not available: install it (Debian: apt-get install iptables) for a network barrier",
    };
  }
  const v6 = install("ip6tables", false);
  return {
    kind: "iptables-owner",
    detail: `uids ${SANDBOX_UIDS.first}–${SANDBOX_UIDS.first + SANDBOX_UIDS.count - 1} may reach only ${GUARD_HOST} over TCP (IPv4)${v6 ? "; all its IPv6 traffic is rejected" : "; ip6tables unavailable"}`,
  };
}
