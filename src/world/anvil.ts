import "./polyfill.ts";
import { createRequire } from "node:module";
import path from "node:path";
import { Instance } from "prool";
import { ChainError } from "../errors.ts";

const require = createRequire(import.meta.url);

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

/**
 * Starts Anvil on `127.0.0.1` with `--port 0` and parses the port it prints, so parallel
 * instances never race for a port. The process is killed when the parent exits (prool/execa cleanup).
 *
 * @throws {ChainError} when the binary is missing or Anvil does not start in time.
 * @example
 * const anvil = await startAnvil({ loadState: "fixtures/world/state.json", chainId: 56 });
 * // ... use anvil.url
 * await anvil.stop();
 */
export async function startAnvil(parameters: StartAnvilParameters = {}): Promise<AnvilHandle> {
  const instance = Instance.anvil(
    {
      binary: anvilBinaryPath(),
      host: "127.0.0.1",
      port: 0,
      chainId: parameters.chainId ?? 56,
      accounts: parameters.accounts ?? 0,
      loadState: parameters.loadState,
      timestamp: parameters.timestamp,
      forkUrl: parameters.forkUrl,
      forkBlockNumber: parameters.forkBlockNumber,
      blockBaseFeePerGas: parameters.blockBaseFeePerGas,
      ...(parameters.extraArgs ?? {}),
    } as never,
    { timeout: parameters.timeoutMs ?? 20_000, messageBuffer: 50 },
  );
  let port = 0;
  const onStdout = (message: string) => {
    const match = /Listening on [\d.]+:(\d+)/.exec(message);
    if (match) port = Number(match[1]);
  };
  instance.on("stdout", onStdout);
  try {
    await instance.start();
  } catch (error) {
    throw new ChainError("Anvil did not start.", { cause: error, details: instance.messages.get().join("") });
  }
  if (!port) for (const message of instance.messages.get()) onStdout(message);
  instance.off("stdout", onStdout);
  if (!port) {
    await instance.stop();
    throw new ChainError("Anvil started but printed no 'Listening on' port.");
  }
  const child = (instance as unknown as { _internal: { process?: { pid?: number } } })._internal.process;
  let stopped = false;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child?.pid,
    async stop() {
      if (stopped) return;
      stopped = true;
      await instance.stop().catch(() => {});
    },
  };
}
