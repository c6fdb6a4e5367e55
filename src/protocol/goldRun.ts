import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Hex } from "viem";
import { ChainError } from "../errors.ts";
import { referenceModel } from "../models/reference.ts";
import type { GoldActions } from "../models/types.ts";
import type { ExecuteModuleParameters } from "../sandbox/executeModule.ts";
import { type ExecuteModuleResult, fail } from "../sandbox/executeResult.ts";
import { startRpcGuard } from "../sandbox/rpcGuard.ts";
import { transpileModule } from "../sandbox/transpile.ts";
import type { SignedTypedData } from "../sandbox/typedDataSigner.ts";
import { PROJECT_ROOT } from "../tasks/files.ts";
import type { LoadedTask } from "../tasks/load.ts";
import type { Instance } from "../tasks/types.ts";
import { readLedger } from "../validators/effects/ledger.ts";
import type { Ledger } from "../validators/effects/ledgerTypes.ts";
import { ledgerWorld } from "../validators/effects/ledgerWorld.ts";
import type { World } from "../world/world.ts";
import { type ChainClients, signAndSend } from "./chain.ts";
import { parseRound } from "./control.ts";
import { interpretValue } from "./execution.ts";
import { extractModule } from "./parse.ts";
import type { TransactionRequest } from "./transaction.ts";

/**
 * A finished gold run: its ledger, the transactions it sent and the EIP-712 signatures it made, and
 * all of it in order with the answer or refusal it ended with (`actions`, what the `reference` model
 * replays under `--protocol tools`).
 */
export type GoldRun = {
  ledger: Ledger;
  requests: TransactionRequest[];
  signatures: SignedTypedData[];
  actions: GoldActions;
};

/** A gold module that has not returned after this long is a broken task, not a slow model. */
const GOLD_TIMEOUT_MS = 60_000;

/**
 * Where gold modules are written: the working directory's `.questbench/` (beside the run's other
 * caches, never inside an installed package) when the libraries a gold answer imports resolve from
 * there, else the project's own.
 */
function goldModuleRoot(): string {
  const cwd = process.cwd();
  try {
    const here = createRequire(path.join(cwd, "x.js"));
    for (const lib of ["viem", "ethers"]) here.resolve(lib);
    return cwd;
  } catch {
    return PROJECT_ROOT;
  }
}

/**
 * Imports one module of the project's own code (a gold answer, or a test's variant of one) in this
 * process: transpiled, written once by content hash under `.questbench/gold-modules/` where its
 * imports resolve ({@link goldModuleRoot}). Never a model's code: that runs in the sandbox only.
 * @throws {ChainError} when the module does not transpile or exports no executeSkill.
 */
async function importTrustedModule(code: string): Promise<(...args: unknown[]) => unknown> {
  const js = await transpileModule(code);
  if (!js.ok) throw new ChainError(`a gold module does not transpile: ${js.message}`);
  const dir = path.join(goldModuleRoot(), ".questbench", "gold-modules");
  const file = path.join(dir, `${createHash("sha256").update(js.code).digest("hex").slice(0, 24)}.mjs`);
  // Written once, whole, then renamed into place: another process importing the same module (every
  // test file and run shares the folder) never reads a file being rewritten.
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    writeFileSync(tmp, js.code);
    renameSync(tmp, file);
  }
  const module = (await import(pathToFileURL(file).href)) as {
    executeSkill?: (...args: unknown[]) => unknown;
  };
  if (typeof module.executeSkill !== "function")
    throw new ChainError("a gold module exports no executeSkill");
  return module.executeSkill;
}

/**
 * Runs one gold module in this process (gold answers are the task author's code, not a model's:
 * no sandbox) and returns what `executeSkill` returned.
 * @throws {ChainError} when the module does not transpile, export executeSkill, or return in time.
 */
async function runGoldModule(code: string, providerUrl: string, world: World): Promise<unknown> {
  const executeSkill = await importTrustedModule(code);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      executeSkill(providerUrl, world.agent.address, { ...world.contracts }),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new ChainError("a gold module did not return in 60 s")),
          GOLD_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A stand-in for `executeModule` (src/sandbox/executeModule.ts) for modules that are the project's
 * own code, gold answers and the generic mutants built from them (docs/SCORING.md "Proof"): the same
 * RPC guard URL and arguments, imported in this process instead of a sandboxed child, so a suite of
 * thousands of such attempts spends its time on the scoring path it proves. A throw of the module is
 * a `runtime_error` result, as in the sandbox; `timings.runMs` is the whole call.
 */
export async function executeTrustedModule(
  parameters: Pick<ExecuteModuleParameters, "source" | "providerUrl" | "agentAddress" | "deployedContracts">,
): Promise<ExecuteModuleResult> {
  const timings = { transpileMs: 0, spawnMs: 0, runMs: 0 };
  const t0 = performance.now();
  try {
    const executeSkill = await importTrustedModule(parameters.source);
    const value = await executeSkill(parameters.providerUrl, parameters.agentAddress, {
      ...parameters.deployedContracts,
    });
    return { ok: true, value, timings: { ...timings, runMs: performance.now() - t0 } };
  } catch (error) {
    return fail("runtime_error", (error as Error).message, { ...timings, runMs: performance.now() - t0 });
  }
}

/**
 * Runs the task's gold answer on the instance, from the chain state at `fromBlock` (the attempt's
 * starting state), and reads its ledger. The chain is reverted to `fromBlock` first and left at the
 * gold's end: call it after everything that reads the attempt's own blocks. The first gold block gets
 * the timestamp and base fee the attempt's first block had, so both run under the same clock.
 * @param first the attempt's first block: its timestamp and base fee are pinned for the gold's.
 * @throws {ChainError} when the gold answer cannot run (a broken task) or the chain fails.
 */
export async function runGold(
  task: LoadedTask,
  instance: Instance,
  world: World,
  clients: ChainClients,
  fromBlock: bigint,
  first: { timestamp: bigint; baseFeePerGas: bigint | null },
  snapshotId: Hex,
): Promise<GoldRun> {
  const test = clients.test;
  const reverted = await test.request({ method: "evm_revert" as never, params: [snapshotId] as never });
  if (reverted !== true) throw new ChainError(`evm_revert(${snapshotId}) failed before the gold run`);
  // Anvil refuses a next timestamp behind its clock (which ran on with the attempt's blocks): set the
  // clock itself one second before, as src/world/pool.ts pins it (1 s per block).
  await test.request({ method: "evm_setTime" as never, params: [Number(first.timestamp - 1n)] as never });
  if (first.baseFeePerGas !== null)
    await test.setNextBlockBaseFeePerGas({ baseFeePerGas: first.baseFeePerGas });
  const guard = await startRpcGuard({
    upstreamUrl: clients.url,
    typedDataSigner: task.spec.wallet?.signTypedData
      ? { privateKey: world.agent.privateKey, chainId: world.chainId }
      : undefined,
  });
  const requests: TransactionRequest[] = [];
  const actions: GoldActions = { steps: [] };
  const model = referenceModel();
  /** Runs one gold module; returns the answer it gave (undefined for a transaction or a refusal). */
  const run = async (code: string, expect: "transaction" | "answer" | "either") => {
    const signedBefore = guard.signatures.length;
    const read = interpretValue(await runGoldModule(code, guard.url, world), expect);
    for (const { signature: _, ...typedData } of guard.signatures.slice(signedBefore))
      actions.steps.push({ kind: "sign", typedData });
    if ("failure" in read)
      throw new ChainError(`the gold answer of ${task.spec.id} is invalid: ${read.failure.reason}`);
    if ("refusal" in read) actions.refusal = read.refusal;
    if (!("request" in read)) return "answer" in read ? read.answer : undefined;
    requests.push(read.request);
    actions.steps.push({
      kind: "send",
      request: { to: read.request.to, data: read.request.data, value: String(read.request.value) },
    });
    const sent = await signAndSend(clients, read.request);
    if ("rejected" in sent)
      throw new ChainError(`the gold transaction of ${task.spec.id} was rejected: ${sent.rejected}`);
    return undefined;
  };
  try {
    if (task.spec.split === "atomic") {
      const { text } = await model.generate({
        spec: task.spec,
        instance,
        world,
        step: "atomic",
        messages: [],
      });
      const extracted = extractModule(text);
      if (!extracted.ok) throw new ChainError(`the gold answer of ${task.spec.id} has no module`);
      actions.answer = await run(extracted.code, instance.kind === "query" ? "answer" : "transaction");
    } else {
      for (let round = 1; round <= (task.spec.reference?.rounds?.length ?? 0); round++) {
        const { text } = await model.generate({
          spec: task.spec,
          instance,
          world,
          step: "round",
          round,
          messages: [],
        });
        const request = parseRound(text);
        const answer = request.code ? await run(request.code, "either") : undefined;
        if (request.control?.kind === "submit") actions.answer = { ...request.control.answer, ...answer };
        if (request.control?.kind === "error")
          actions.refusal = { reason: `${request.control.type}: ${request.control.message}` };
        if (request.control) break;
      }
    }
  } finally {
    await guard.close();
  }
  return {
    ledger: await readLedger(clients.public, ledgerWorld(world), fromBlock),
    requests,
    signatures: guard.signatures,
    actions,
  };
}

/**
 * Where finished gold runs are kept between processes (`<cache dir>/gold/`), and the hash of the code
 * that produced them (the scoring code hash of the resume key): a gold run is a pure function of the
 * task files, the instance, the world and that code, so an edit to any of them runs it again.
 */
export type GoldCache = { dir: string; codeSha256: string };

type Stored = { v: 1; run: unknown; prices: [string, string][] };

const toJson = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (_k, v) =>
      typeof v === "bigint"
        ? `${v}n`
        : v instanceof Map
          ? { __map: [...v] }
          : v instanceof Set
            ? { __set: [...v] }
            : v,
    ),
  );
const fromJson = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (_k, v) => {
    if (typeof v === "string" && /^-?\d+n$/.test(v)) return BigInt(v.slice(0, -1));
    if (v && typeof v === "object" && "__map" in v) return new Map(v.__map);
    if (v && typeof v === "object" && "__set" in v) return new Set(v.__set);
    return v;
  });

/** The cache file of one gold run: its identity is everything the run depends on. */
export function goldCacheFile(
  cache: GoldCache,
  task: LoadedTask,
  instance: Instance,
  world: World,
  first: { timestamp: bigint; baseFeePerGas: bigint | null },
): string {
  const key = createHash("sha256")
    .update(
      JSON.stringify([
        cache.codeSha256,
        task.spec.sha256,
        task.spec.id,
        instance.seed,
        instance.templateIndex,
        world.worldId,
        String(first.timestamp),
        String(first.baseFeePerGas),
      ]),
    )
    .digest("hex")
    .slice(0, 32);
  return path.join(cache.dir, "gold", `${key}.json`);
}

/** A stored gold run and the prices read with it, or undefined (absent or unreadable: run it again). */
export function readGoldCache(file: string): { run: GoldRun; prices: Map<string, bigint> } | undefined {
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Stored;
    if (stored.v !== 1) return undefined;
    return {
      run: fromJson(stored.run) as GoldRun,
      prices: new Map(stored.prices.map(([k, p]) => [k, BigInt(p)])),
    };
  } catch {
    return undefined;
  }
}

/** Keeps a gold run (written whole, then renamed: a concurrent reader never sees half a file). */
export function writeGoldCache(file: string, run: GoldRun, prices: Map<string, bigint>): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const stored: Stored = { v: 1, run: toJson(run), prices: [...prices].map(([k, p]) => [k, String(p)]) };
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(stored));
    renameSync(tmp, file);
  } catch {
    // an unwritable cache only costs the next run the gold run
  }
}
