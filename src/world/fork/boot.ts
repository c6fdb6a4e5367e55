/**
 * Fork mode's instances (README "Fork mode"): the fork is pinned once ({@link resolveFork}), then
 * each pool instance is an Anvil forking that block, provisioned with the built-in world
 * ({@link bootForkInstance}); every instance must come out with the same world.
 */
import { ChainError } from "../../errors.ts";
import { type AnvilHandle, startAnvil } from "../anvil.ts";
import type { World } from "../world.ts";
import { type ForkManifest, type ProvisionReport, provisionFork } from "./provision.ts";
import { redactUrl, scrubUrl, splitCredentials } from "./redact.ts";

/** What a fork run hands to the benchmark tests and the reporter (Vitest `provide("fork")`; null on the local world). */
export type ForkContext = {
  manifest: ForkManifest;
  /** The provisioned world: the fork's addresses, used instead of world.json. */
  world: World;
  report: ProvisionReport;
  /** Task id → why its pre-state could not be provisioned (those tasks are skipped, not scored). */
  skipped: Record<string, string>;
};

/** `--fork-url` and `--fork-block` as the user typed them. */
export type ForkOptions = { url: string; block: number | "latest" };

/**
 * One JSON-RPC call to the remote endpoint. Errors never carry the URL's credentials (a ChainError
 * with the redacted URL and no cause).
 */
async function remoteRpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  let body: { result?: T; error?: { code: number; message: string } };
  try {
    const { url: target, headers } = splitCredentials(url);
    const response = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = (await response.json()) as typeof body;
  } catch (error) {
    throw new ChainError(`The fork URL ${redactUrl(url)} did not answer ${method}.`, {
      details: scrubUrl(String((error as Error).message ?? error), url),
    });
  }
  if (body.error)
    throw new ChainError(`The fork URL ${redactUrl(url)} rejected ${method}.`, {
      details: scrubUrl(`${body.error.code}: ${body.error.message}`, url),
    });
  return body.result as T;
}

/**
 * Pins the fork: resolves `latest` once (`eth_blockNumber`), reads the chain id and the block's hash.
 * Every pool instance then forks at exactly this block, and results.json records it.
 *
 * @returns the manifest entry (URL redacted).
 * @throws {ChainError} when the endpoint does not answer, or the block does not exist.
 * @example
 * const fork = await resolveFork({ url: "https://bsc.example/v1/0123456789abcdef0123", block: "latest" });
 * // { chainId: 56, blockNumber: 41234567, blockHash: "0x…", url: "https://bsc.example/v1/***" }
 */
export async function resolveFork(options: ForkOptions): Promise<ForkManifest> {
  const chainId = Number(await remoteRpc<string>(options.url, "eth_chainId"));
  const blockNumber =
    options.block === "latest"
      ? Number(await remoteRpc<string>(options.url, "eth_blockNumber"))
      : options.block;
  const block = await remoteRpc<{ hash: `0x${string}` } | null>(options.url, "eth_getBlockByNumber", [
    `0x${blockNumber.toString(16)}`,
    false,
  ]);
  if (!block)
    throw new ChainError(`Block ${blockNumber} does not exist at the fork URL ${redactUrl(options.url)}.`);
  return { chainId, blockNumber, blockHash: block.hash, url: redactUrl(options.url) };
}

/** Parameters of {@link bootForkInstance}. */
export type BootForkInstanceParameters = {
  /** The fork URL, credentials included (Anvil needs them; they are never printed). */
  url: string;
  /** The pinned fork, from {@link resolveFork}. */
  fork: ForkManifest;
  /** A world an earlier instance provisioned: this one must come out identical. */
  expect?: World | undefined;
};

/**
 * Boots one Anvil forked at the pinned block (`--fork-url`, `--fork-block-number`: Anvil's on-disk
 * RPC cache under `~/.foundry/cache/rpc/<chain>/<block>/` is used, so a rerun needs no network for
 * state it already read) and provisions the built-in world on it ({@link provisionFork}). The
 * instance is at the provisioned head; the pool takes its snapshot there.
 *
 * @throws {ChainError} when Anvil does not start (message scrubbed of credentials), when provisioning
 *   throws, or when the world differs from `expect` (provisioning must be deterministic).
 */
export async function bootForkInstance(
  parameters: BootForkInstanceParameters,
): Promise<{ handle: AnvilHandle; world: World; report: ProvisionReport }> {
  const { url, fork } = parameters;
  let handle: AnvilHandle;
  try {
    handle = await startAnvil({
      forkUrl: url,
      forkBlockNumber: fork.blockNumber,
      chainId: fork.chainId,
      timeoutMs: 60_000,
    });
  } catch (error) {
    // Anvil's log (kept in the error's details) quotes the fork URL: scrub it, and drop the cause.
    const e = error as { shortMessage?: string; details?: string; message?: string };
    throw new ChainError(`Anvil did not start forking ${redactUrl(url)} at block ${fork.blockNumber}.`, {
      details: scrubUrl(e.details ?? e.message ?? String(error), url),
    });
  }
  try {
    const provisioned = await provisionFork({ url: handle.url, chainId: fork.chainId });
    const { world } = provisioned;
    // A step's error can be Anvil's, quoting the upstream URL: the report reaches results.json.
    const report = scrubReport(provisioned.report, url);
    if (parameters.expect && JSON.stringify(parameters.expect) !== JSON.stringify(world))
      throw new ChainError("A fork instance provisioned a different world than the first one.", {
        details: `worldId ${world.worldId}, expected ${parameters.expect.worldId}: provisioning must be deterministic.`,
      });
    return { handle, world, report };
  } catch (error) {
    await handle.stop();
    if (error instanceof ChainError)
      throw new ChainError(scrubUrl(error.shortMessage, url), {
        details: error.details && scrubUrl(error.details, url),
      });
    throw new ChainError("Fork provisioning failed.", {
      details: scrubUrl(String((error as Error).message), url),
    });
  }
}

/**
 * The provisioning report with every message that could quote the fork URL (the steps' errors, the
 * requirements' details) passed through {@link scrubUrl} (docs/RUNNING.md "Fork mode: credentials
 * and the RPC cache"): Anvil's errors about a failed upstream fetch name the URL, key included.
 */
export function scrubReport(report: ProvisionReport, url: string): ProvisionReport {
  return {
    ...report,
    errors: Object.fromEntries(Object.entries(report.errors).map(([k, v]) => [k, scrubUrl(v, url)])),
    requirements: report.requirements.map((r) => ({ ...r, detail: scrubUrl(r.detail, url) })),
  };
}
