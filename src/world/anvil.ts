import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ChainError } from "../errors.ts";

const require = createRequire(import.meta.url);

/**
 * Historical states Anvil keeps, all in memory (`--prune-history N`): nothing is ever written to its
 * state folder (`~/.foundry/anvil/tmp/anvil-state-*`, which grew to 1.6 GB per instance and outlived a
 * killed process), and no block's state is serialised. An attempt reads state and traces back to its
 * window's first block only: the longest window (a composite's pre-state and rounds, then its gold run
 * after a revert) spans well under this many blocks.
 */
export const HISTORY_STATES = 1024;

/** Options for {@link startAnvil}. Flags map 1:1 to Anvil's CLI (`anvil --help`). */
export type StartAnvilParameters = {
  /** Path of a state file written by `anvil --dump-state` / `anvil_dumpState` to boot from. */
  loadState?: string | undefined;
  /** Chain id; BSC mainnet is 56. */
  chainId?: number | undefined;
  /** Genesis block timestamp in seconds (only used when not loading a state). */
  timestamp?: number | bigint | undefined;
  /** Fork a remote chain (README "Fork mode"). */
  forkUrl?: string | undefined;
  forkBlockNumber?: number | bigint | undefined;
  /** Number of dev accounts Anvil unlocks; the harness uses none, so 0 by default. */
  accounts?: number | undefined;
  /** Base fee of the genesis block in wei. */
  blockBaseFeePerGas?: number | bigint | undefined;
  /** Extra raw CLI arguments. */
  extraArgs?: Record<string, unknown> | undefined;
  /** Milliseconds to wait for "Listening on". Default 20 000. */
  timeoutMs?: number | undefined;
};

/** A running Anvil process on 127.0.0.1. */
export type AnvilHandle = {
  /** JSON-RPC URL, e.g. `http://127.0.0.1:41235`. */
  url: string;
  port: number;
  /** Process id of the Anvil binary (for memory measurements and fault tests). */
  pid: number | undefined;
  /** Stops the process; safe to call twice. */
  stop(): Promise<void>;
};

/** Absolute path of the Anvil binary shipped by `@foundry-rs/anvil`'s platform package. */
export function anvilBinaryPath(): string {
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  const platform = process.platform === "win32" ? "win32" : process.platform;
  if (!arch) throw new ChainError(`Anvil has no binary for ${process.platform}/${process.arch}.`);
  const pkg = `@foundry-rs/anvil-${platform}-${arch}`;
  try {
    const dir = path.dirname(require.resolve(`${pkg}/package.json`));
    return path.join(dir, "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
  } catch {
    throw new ChainError(`The Anvil binary package ${pkg} is not installed.`, {
      details:
        "Run `npm install` without --omit=optional; @foundry-rs/anvil ships the binary as an optional dependency.",
    });
  }
}

/** Anvil's command line for `parameters` (flags as `anvil --help` names them). */
export function anvilArgs(parameters: StartAnvilParameters): string[] {
  const flags: Record<string, unknown> = {
    host: "127.0.0.1",
    port: 0,
    chainId: parameters.chainId ?? 56,
    accounts: parameters.accounts ?? 0,
    loadState: parameters.loadState,
    timestamp: parameters.timestamp,
    forkUrl: parameters.forkUrl,
    forkBlockNumber: parameters.forkBlockNumber,
    blockBaseFeePerGas: parameters.blockBaseFeePerGas,
    pruneHistory: HISTORY_STATES,
    ...(parameters.extraArgs ?? {}),
  };
  const args: string[] = [];
  for (const [name, value] of Object.entries(flags)) {
    if (value === undefined || value === false) continue;
    args.push(`--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    if (value !== true) args.push(String(value));
  }
  return args;
}

/**
 * util-linux's `setpriv`, where this system has it (Linux): Anvil is started through
 * `setpriv --pdeathsig SIGKILL`, so the kernel kills it when the process that started it dies, even
 * by `kill -9`, which no handler of ours can see. Elsewhere Anvil is stopped by {@link AnvilHandle.stop}
 * and at exit only.
 */
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find(
  (file) => process.platform === "linux" && existsSync(file),
);

/** Every Anvil this process started and that still runs: killed when this process exits. */
const live = new Set<ReturnType<typeof spawn>>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/** The last bytes of Anvil's error output kept for a start failure's message. */
const STDERR_TAIL_CHARS = 4_000;

/**
 * Starts Anvil on `127.0.0.1` with `--port 0` and parses the port it prints, so parallel instances
 * never race for a port. Anvil's output is read only until that line, then discarded as it comes
 * (it prints a line per RPC call: nothing of it is kept); its error output keeps a bounded tail.
 * The process dies with the process that started it: through `setpriv --pdeathsig` on Linux (see
 * {@link SETPRIV}), and on every system at this process's exit.
 *
 * @throws {ChainError} when the binary is missing or Anvil does not start in time.
 * @example
 * const anvil = await startAnvil({ loadState: "fixtures/world/state.json", chainId: 56 });
 * // ... use anvil.url
 * await anvil.stop();
 */
export async function startAnvil(parameters: StartAnvilParameters = {}): Promise<AnvilHandle> {
  const binary = anvilBinaryPath();
  const args = anvilArgs(parameters);
  const child = SETPRIV
    ? spawn(SETPRIV, ["--pdeathsig", "SIGKILL", "--", binary, ...args], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, FOUNDRY_DISABLE_NIGHTLY_WARNING: "true" },
      })
    : spawn(binary, args, {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, FOUNDRY_DISABLE_NIGHTLY_WARNING: "true" },
      });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  live.add(child);
  child.once("exit", () => live.delete(child));
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
    await exited;
    clearTimeout(timer);
  };
  const port = await new Promise<number>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(
      () =>
        reject(
          new ChainError("Anvil did not start in time.", {
            details: stderr || seen.slice(-STDERR_TAIL_CHARS),
          }),
        ),
      parameters.timeoutMs ?? 20_000,
    );
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
      const match = /Listening on [\d.]+:(\d+)/.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      // From here on Anvil's log is read and dropped, so its pipe never fills and nothing is kept.
      child.stdout.on("data", () => {});
      resolve(Number(match[1]));
    };
    child.stdout.on("data", onData);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new ChainError("Anvil did not start.", { cause: error }));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new ChainError(`Anvil exited (${signal ?? code}) before it listened.`, { details: stderr }));
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    // Through setpriv the pid is Anvil's too: setpriv execs it in place.
    pid: child.pid,
    stop,
  };
}
