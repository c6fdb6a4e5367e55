import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import AjvModule from "ajv";
import { expect } from "vitest";
import type { RunResults } from "../../src/results/types.ts";
import { PROJECT_ROOT } from "../../src/tasks/load.ts";
import { type CliRun, questbench as runCli } from "./cli.ts";

// The fork suites' shared pieces (tests/fork.test.ts, tests/tasks/fork.test.ts): the CLI as a child
// with its own HOME, its output on failure, results.json checked against the schema, and a keyed
// JSON-RPC provider in front of a world.

/** Runs `npx questbench …` (bin/questbench.mjs) with its own HOME, so Anvil's RPC cache lands in a temp dir. */
export const questbench = (args: string[], home: string) => runCli(args, undefined, { env: { HOME: home } });

/** A run's exit code and the tail of its output: every failure below shows what the child said. */
export const output = (run: CliRun) =>
  `questbench exited ${run.code}\n--- retried ---\n${retryLines(run.stdout)}\n--- stdout (tail) ---\n${run.stdout.slice(-4000)}\n--- stderr (tail) ---\n${run.stderr.slice(-4000)}`;
/** The progress lines that name an infrastructure fault and the attempt run again after it. */
const retryLines = (stdout: string) =>
  stdout
    .split("\n")
    .filter((line) => line.includes("the chain failed under the attempt"))
    .join("\n");

const Ajv = AjvModule as unknown as typeof AjvModule.default;
const validateResults = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, "src/results/results.schema.json"), "utf8")),
);

/**
 * Reads `<dir>/results.json` of `run` and checks it against the committed results JSON Schema; when
 * the run wrote none (it failed), the error carries the run's own output.
 */
export function readResults(dir: string, run: CliRun): RunResults {
  let results: RunResults;
  try {
    results = JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8")) as RunResults;
  } catch (error) {
    throw new Error(`no results.json in ${dir} (${(error as Error).message})\n${output(run)}`);
  }
  expect(validateResults(results), JSON.stringify(validateResults.errors)).toBe(true);
  return results;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A JSON-RPC provider that, like a hosted one, wants its key: Basic auth `user:password` and
 * `?apikey=KEY`, else 401. It forwards to `target` and counts the requests it let through.
 */
export async function keyedProxy(target: string, user: string, password: string, key: string) {
  const stats = { accepted: 0, refused: 0 };
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const query = new URL(req.url ?? "/", "http://x").searchParams.get("apikey");
    if (req.headers.authorization !== expected || query !== key) {
      stats.refused += 1;
      res.writeHead(401).end("unauthorized");
      return;
    }
    stats.accepted += 1;
    try {
      const upstream = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      });
      res.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
    } catch {
      // The world stopped while a fork still asked (the run is over): a gateway error, not a crash of the test.
      res.writeHead(502).end("upstream gone");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, stats, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Every file below `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}
