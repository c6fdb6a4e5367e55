import { startAnvil } from "./anvil.ts";
import { CATALOGUE, type Placement } from "./catalogue.ts";
import { primeWorldClock } from "./pool.ts";
import { CONTRACT_KEYS, loadWorld, type World, worldStatePath } from "./world.ts";

/** Parameters of {@link serveWorld}. */
export type ServeWorldParameters = {
  /** TCP port on 127.0.0.1; 0 (default) lets the OS pick one. */
  port?: number | undefined;
  /** State file; default `fixtures/world/state.json`. */
  stateFile?: string | undefined;
  /** Address book; default the world.json next to the default state file. */
  world?: World | undefined;
};

/** A running world for manual exploration (`npx questbench world`). */
export type ServeWorldReturnType = {
  /** JSON-RPC URL, e.g. `http://127.0.0.1:8545`. */
  url: string;
  world: World;
  stop(): Promise<void>;
};

/**
 * Starts Anvil from the world state with deterministic time (1 s per block from the snapshot on),
 * the same way the pool does, for `npx questbench world`.
 *
 * @example
 * const { url, world, stop } = await serveWorld({ port: 8545 });
 * console.log(formatAddressBook(world));
 */
export async function serveWorld(parameters: ServeWorldParameters = {}): Promise<ServeWorldReturnType> {
  const world = parameters.world ?? loadWorld();
  const anvil = await startAnvil({
    loadState: parameters.stateFile ?? worldStatePath(),
    chainId: world.chainId,
    extraArgs: parameters.port ? { port: parameters.port } : {},
  });
  try {
    await primeWorldClock(anvil.url);
  } catch (error) {
    await anvil.stop();
    throw error;
  }
  return { url: anvil.url, world, stop: () => anvil.stop() };
}

/** Address-book sections: each placement kind of the catalogue under its heading. */
const GROUPS: [string, Placement["kind"]][] = [
  ["Canonical BSC contracts", "canonical"],
  ["Pairs (Uniswap V2 at PancakeSwap's factory)", "pair"],
  ["Auxiliary contracts", "deployed"],
  ["Accounts", "account"],
  ["Built by the hard world's steps", "built"],
];

/**
 * Renders the world's address book as aligned text: the 29 `deployedContracts` keys grouped, plus
 * the agent's address. Private keys are never printed (they stay in world.json for the harness).
 */
export function formatAddressBook(world: World): string {
  const width = Math.max(...CONTRACT_KEYS.map((key) => key.length), "agent".length) + 2;
  const lines = [
    `EVM-QuestBench world ${world.worldId}`,
    `chain ${world.chainId}, snapshot block ${world.snapshot.blockNumber} at ${new Date(world.snapshot.timestamp * 1000).toISOString()}, 1 s per block`,
  ];
  for (const [title, kind] of GROUPS) {
    lines.push("", `${title}:`);
    for (const key of CONTRACT_KEYS) {
      if (CATALOGUE[key].place.kind !== kind) continue;
      const token = (world.tokens as Record<string, { symbol: string }>)[key];
      lines.push(`  ${key.padEnd(width)}${world.contracts[key]}${token ? `  ${token.symbol}` : ""}`);
    }
    if (title === "Accounts") lines.push(`  ${"agent".padEnd(width)}${world.agent.address}`);
  }
  return `${lines.join("\n")}\n`;
}
