import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { leaderboardRow } from "../src/reporting/leaderboard.ts";
import { renderSandboxWarning } from "../src/reporting/summary.ts";
import { parseRunFlags } from "../src/runOptions.ts";
import { allocateSandboxUid, releaseSandboxUid } from "../src/sandbox/executeModule.ts";
import {
  type ExecuteModuleParameters,
  executeModule,
  type RpcGuard,
  reviveValue,
  startRpcGuard,
  transpileModule,
} from "../src/sandbox/index.ts";
import { libraryBundle } from "../src/sandbox/libraryBundle.ts";
import {
  ensureMemoryBarrier,
  MEMORY_HEADROOM_MB,
  memoryCgroupParent,
  sweepMemoryCgroups,
} from "../src/sandbox/memoryCgroup.ts";
import {
  ensureIptablesBarrier,
  ensureNetworkBarrier,
  GUARD_HOST,
  SANDBOX_GID,
  SANDBOX_UIDS,
} from "../src/sandbox/networkBarrier.ts";
import { requireSandboxBarriers } from "../src/sandbox/requireBarriers.ts";
import { MAX_BIGINT_DIGITS } from "../src/sandbox/reviveValue.ts";
import { overrideSandboxRuntime, sandboxRuntime } from "../src/sandbox/sandboxRuntime.ts";
import { type AnvilHandle, startAnvil } from "../src/world/anvil.ts";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const agent = "0x00000000000000000000000000000000000a9e57";
const recipient = "0x000000000000000000000000000000000000beef";
const oneEther = 10n ** 18n;
/**
 * How model code reaches the result channel (fd 3) without node:fs: the class of its own stdout (a
 * pipe socket) wraps any inherited pipe. So the channel stays untrusted (docs/SECURITY.md).
 */
const FD3 = `const channel = new (process.stdout.constructor as any)({ fd: 3, readable: false });
const writeChannel = (data: string | Uint8Array) => new Promise((resolve) => channel.write(data, resolve));`;

let anvil: AnvilHandle;
let guard: RpcGuard;

async function anvilRpc(method: string, params: unknown[] = []): Promise<any> {
  const response = await fetch(anvil.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

function run(source: string, overrides: Partial<ExecuteModuleParameters> = {}) {
  return executeModule({
    source,
    providerUrl: guard.url,
    agentAddress: agent,
    deployedContracts: { Recipient: recipient },
    // A bound on a hang, not on speed: at load average 20 a module that allocates 600 MiB took over
    // 10 s. Tests of the timeout itself set their own.
    timeoutMs: 60_000,
    ...overrides,
  });
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 56 });
  await anvilRpc("anvil_setBalance", [agent, `0x${(5n * oneEther).toString(16)}`]);
  guard = await startRpcGuard({ upstreamUrl: anvil.url });
});

afterAll(async () => {
  await guard?.close();
  await anvil?.stop();
});

describe("transpileModule", () => {
  test("erases types and keeps ES module syntax", async () => {
    const result = await transpileModule(
      "export async function executeSkill(url: string): Promise<bigint> { return 1n; }",
    );
    expect(result).toEqual({
      ok: true,
      code: "// executeSkill.ts\nasync function executeSkill(url) {\n  return 1n;\n}\nexport {\n  executeSkill\n};\n",
    });
  });

  test("points ethers and viem imports at the library bundle and leaves every other import as written", async () => {
    const libraries = await libraryBundle();
    const result = await transpileModule(
      `import { ethers } from "ethers";
      import { bsc } from "viem/chains";
      import { helper } from "./helper";
      import lodash from "lodash";
      export async function executeSkill(url: string) {
        const viem = await import("viem");
        const dynamic = await import(url);
        return [ethers, bsc, helper, lodash, viem, dynamic];
      }`,
      libraries.entries,
    );
    expect(result.ok).toBe(true);
    const code = (result as { code: string }).code;
    expect(code).toContain(`from ${JSON.stringify(libraries.entries.ethers)}`);
    expect(code).toContain(`from ${JSON.stringify(libraries.entries["viem/chains"])}`);
    expect(code).toContain(`import(${JSON.stringify(libraries.entries.viem)})`);
    expect(code).toContain('from "./helper"');
    expect(code).toContain('from "lodash"');
    expect(code).toContain("import(url)");
    expect(Object.keys(libraries.entries)).toEqual(
      expect.arrayContaining(["ethers", "ethers/abi", "viem", "viem/accounts"]),
    );
  });

  test("returns a syntax error as a result", async () => {
    expect(await transpileModule("export function executeSkill( {")).toEqual({
      ok: false,
      message: "1:31: Expected identifier but found end of file",
    });
  });
});

describe("executeModule: the model contract", () => {
  test("runs an ethers module that reads a balance through the guard and returns a tx with a bigint value", async () => {
    const result = await run(`
      import { ethers } from "ethers";
      export async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {
        const provider = new ethers.JsonRpcProvider(providerUrl);
        const balance = await provider.getBalance(agentAddress);
        const network = await provider.getNetwork();
        return { to: deployedContracts.Recipient, data: "0x", value: balance / 5n, chainId: network.chainId };
      }`);
    expect(result).toMatchObject({
      ok: true,
      value: { to: recipient, data: "0x", value: oneEther, chainId: 56n },
    });
    if (!result.ok) throw new Error("unreachable");
    expect(typeof (result.value as { value: unknown }).value).toBe("bigint");
  });

  test("runs a viem public client over http(providerUrl)", async () => {
    const result = await run(`
      import { createPublicClient, http, parseEther } from "viem";
      import { bsc } from "viem/chains";
      export async function executeSkill(providerUrl: string, agentAddress: string) {
        const client = createPublicClient({ chain: bsc, transport: http(providerUrl) });
        return { answer: { balance: await client.getBalance({ address: agentAddress as \`0x\${string}\` }), chainId: await client.getChainId(), one: parseEther("1") } };
      }`);
    expect(result).toMatchObject({
      ok: true,
      value: { answer: { balance: 5n * oneEther, chainId: 56, one: oneEther } },
    });
  });

  test("carries a raw fetch to providerUrl over the pipe to the guard; node:http is not a built-in it allows", async () => {
    const result = await run(`
      export async function executeSkill(providerUrl: string, agentAddress: string) {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "eth_getBalance", params: [agentAddress, "latest"] });
        const viaFetch = await (await fetch(providerUrl, { method: "POST", body })).json();
        const wrongPath = await fetch(new URL(providerUrl).origin + "/", { method: "POST", body });
        let http = "loaded";
        try { await import("node:http"); } catch (error: any) { http = error.code; }
        return { viaFetch, wrongPath: wrongPath.status, http };
      }`);
    expect(result).toMatchObject({
      ok: true,
      value: { viaFetch: { id: 7, result: "0x4563918244f40000" }, wrongPath: 404, http: "ERR_ACCESS_DENIED" },
    });
  });

  test("preserves bytes, nested bigints and an undefined return", async () => {
    const bytes = await run(
      `export async function executeSkill() { return { data: new Uint8Array([1, 255]), list: [1n, -2n], n: 1.5, s: "x" }; }`,
    );
    expect(bytes).toMatchObject({
      ok: true,
      value: { data: new Uint8Array([1, 255]), list: [1n, -2n], n: 1.5, s: "x" },
    });
    const nothing = await run("export async function executeSkill() {}");
    expect(nothing).toMatchObject({ ok: true, value: undefined });
  });

  test('fails with "ethers is not defined" when the module uses ethers without importing it', async () => {
    const result = await run(`
      export async function executeSkill(providerUrl: string, agentAddress: string) {
        return { to: agentAddress, value: ethers.parseEther("1") };
      }`);
    expect(result).toMatchObject({ ok: false, error: { code: "runtime_error" } });
    if (result.ok) throw new Error("unreachable");
    expect(result.error.message).toContain("ethers is not defined");
  });

  test("reports a thrown error as runtime_error", async () => {
    const result = await run(
      `export async function executeSkill() { throw new Error("insufficient allowance"); }`,
    );
    expect(result).toMatchObject({
      ok: false,
      error: { code: "runtime_error", message: "Error: insufficient allowance" },
    });
  });

  test("reports a missing executeSkill export as no_export", async () => {
    const result = await run("export async function execute() { return {}; }");
    expect(result).toMatchObject({ ok: false, error: { code: "no_export" } });
  });

  test("reports a non-function or four-parameter executeSkill as signature_mismatch", async () => {
    const notFunction = await run("export const executeSkill = { to: '0x' };");
    expect(notFunction).toMatchObject({ ok: false, error: { code: "signature_mismatch" } });
    const fourParameters = await run(
      "export async function executeSkill(a: string, b: string, c: object, d: number) {}",
    );
    expect(fourParameters).toMatchObject({
      ok: false,
      error: {
        code: "signature_mismatch",
        message:
          "executeSkill declares 4 parameters; it is called with 3 (providerUrl, agentAddress, deployedContracts).",
      },
    });
  });

  test("reports a syntax error as transpile_error without spawning", async () => {
    const result = await run("export async function executeSkill( {");
    expect(result).toMatchObject({
      ok: false,
      error: { code: "transpile_error" },
      timings: { spawnMs: 0, runMs: 0 },
    });
  });

  test.each([
    ["500 k nested brackets", `return ${"[".repeat(500_000)}${"]".repeat(500_000)};`, /at most 262144/],
    ["200 nested brackets", `return ${"[".repeat(200)}${"]".repeat(200)};`, /nest deeper than 128/],
    ["40 k nested braces", `${"{".repeat(40_000)}${"}".repeat(40_000)} return 1;`, /nest deeper than 128/],
    ["a 1 MiB module", `return 1; ${"// filler\n".repeat(100_000)}`, /at most 262144 are transpiled/],
  ])(
    "refuses %s before the transpiler sees it (transpile_error), and the next honest module runs",
    async (_what, body, reason) => {
      const rssBefore = process.memoryUsage().rss;
      const hostile = await run(`export async function executeSkill() { ${body} }`);
      expect(hostile).toMatchObject({ ok: false, error: { code: "transpile_error" } });
      expect(!hostile.ok && hostile.error.message).toMatch(reason);
      // The harness holds no transpiler output for it: bounded well below what esbuild printed (3 GB).
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 2 ** 20);
      const honest = await run("export async function executeSkill() { return { answer: { ok: 1 } }; }");
      expect(honest).toMatchObject({ ok: true, value: { answer: { ok: 1 } } });
    },
  );

  test("reports functions and cycles in the return value as output_invalid", async () => {
    const withFunction = await run(
      "export async function executeSkill() { return { to: '0x', send() {} }; }",
    );
    expect(withFunction).toMatchObject({
      ok: false,
      error: {
        code: "output_invalid",
        message: 'The return value cannot be sent to the harness: field "send" is a function.',
      },
    });
    const cycle = await run(
      "export async function executeSkill() { const tx: any = {}; tx.self = tx; return tx; }",
    );
    expect(cycle).toMatchObject({ ok: false, error: { code: "output_invalid" } });
  });

  test("reports a return value over maxOutputBytes as output_too_large", async () => {
    const result = await run(
      `export async function executeSkill() { return { data: "0x" + "ab".repeat(600_000) }; }`,
    );
    expect(result).toMatchObject({ ok: false, error: { code: "output_too_large" } });
  });

  test("reports a flood written straight to the result channel as output_too_large", async () => {
    const result = await run(`${FD3}
      export async function executeSkill() { const chunk = Buffer.alloc(1 << 20, 120); for (let i = 0; i < 8; i++) await writeChannel(chunk); return {}; }`);
    expect(result).toMatchObject({ ok: false, error: { code: "output_too_large" } });
  });
});

describe("executeModule: the model cannot change the chain", () => {
  test("refuses and records anvil_*, eth_sendTransaction, evm_*, hardhat_* sent with fetch, also in a batch", async () => {
    const before = guard.violations.length;
    const result = await run(`
      export async function executeSkill(providerUrl: string, agentAddress: string) {
        const post = async (body: unknown) => (await fetch(providerUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();
        const call = (id: number, method: string, params: unknown[] = []) => ({ jsonrpc: "2.0", id, method, params });
        const single = [
          await post(call(1, "anvil_setBalance", [agentAddress, "0xffffffffffffffffffffff"])),
          await post(call(2, "eth_sendTransaction", [{ from: agentAddress, to: agentAddress, value: "0x1" }])),
          await post(call(3, "evm_snapshot")),
          await post(call(4, "hardhat_impersonateAccount", [agentAddress])),
        ];
        const batch = await post([call(5, "eth_getBalance", [agentAddress, "latest"]), call(6, "anvil_mine"), call(7, "eth_chainId")]);
        return { single, batch };
      }`);
    expect(result.ok).toBe(true);
    if (!result.ok) throw new Error("unreachable");
    const value = result.value as { single: any[]; batch: any[] };
    expect(value.single.map((r) => r.error.code)).toEqual([-32601, -32601, -32601, -32601]);
    expect(value.batch.map((r) => r.result ?? r.error.code)).toEqual([
      `0x${(5n * oneEther).toString(16)}`,
      -32601,
      "0x38",
    ]);
    expect(guard.violations.slice(before).map((v) => [v.kind, v.method])).toEqual([
      ["forbidden_rpc_method", "anvil_setBalance"],
      ["forbidden_rpc_method", "eth_sendTransaction"],
      ["forbidden_rpc_method", "evm_snapshot"],
      ["forbidden_rpc_method", "hardhat_impersonateAccount"],
      ["forbidden_rpc_method", "anvil_mine"],
    ]);
    expect(BigInt(await anvilRpc("eth_getBalance", [agent, "latest"]))).toBe(5n * oneEther);
    expect(await anvilRpc("eth_blockNumber")).toBe("0x0");
  });
});

describe("executeModule: the sandbox", () => {
  test("denies reading a project file and /etc/passwd: node:fs is not a built-in the sandbox allows", async () => {
    for (const file of [path.join(projectRoot, "package.json"), "/etc/passwd"]) {
      const result = await run(
        `import { readFileSync } from "node:fs";
         export async function executeSkill(_u: string, _a: string, c: Record<string, string>) { return readFileSync(c.file, "utf8"); }`,
        { deployedContracts: { file } },
      );
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: "permission_denied",
          message: expect.stringMatching(
            /^Loading the built-in module node:fs is not allowed in the benchmark sandbox .*\(BuiltinModule node:fs\)$/,
          ),
        },
      });
    }
  });

  test("denies importing a project module that is not ethers or viem", async () => {
    const result = await run(
      `import "${path.join(projectRoot, "src/errors.ts")}"; export async function executeSkill() {}`,
    );
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
  });

  test.each([
    ["Object.keys(process.env)"],
    ["JSON.stringify(process.env)"],
    ["process.env.OPENAI_API_KEY"],
    ["({ ...globalThis.process.env })"],
    ['"OPENAI_API_KEY" in process.env'],
  ])("stops a module that reads the environment: %s", async (read) => {
    process.env.OPENAI_API_KEY = "sk-questbench-test-secret";
    try {
      const result = await run(`export async function executeSkill() { return { leaked: ${read} }; }`);
      expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
      expect(JSON.stringify(result)).not.toContain("sk-questbench-test-secret");
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });

  test("lets a module log (Node's console reads FORCE_COLOR, which is not the module's read)", async () => {
    const result = await run(
      'export async function executeSkill() { console.log("hi", { a: 1n }); console.warn("w"); return 1; }',
    );
    expect(result).toMatchObject({ ok: true, value: 1 });
  });

  const root = process.getuid?.() === 0;

  test("runs each live child as a uid of its own in group nogroup when the harness is root", async () => {
    const source = `export async function executeSkill() {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return [process.getuid(), process.getgid()];
    }`;
    const results = await Promise.all(Array.from({ length: 4 }, () => run(source)));
    const ids = results.map((r) => (r as { value: [number, number] }).value);
    for (const r of results) expect(r.ok).toBe(true);
    if (!root) {
      for (const id of ids) expect(id).toEqual([process.getuid?.(), process.getgid?.()]);
      return;
    }
    for (const [uid, gid] of ids) {
      expect(uid).toBeGreaterThanOrEqual(SANDBOX_UIDS.first);
      expect(uid).toBeLessThan(SANDBOX_UIDS.first + SANDBOX_UIDS.count);
      expect(gid).toBe(SANDBOX_GID);
    }
    expect(new Set(ids.map(([uid]) => uid)).size).toBe(4);
  });

  test.skipIf(!root)(
    "cannot signal another execution's process (own uid, and process.kill refused)",
    async () => {
      // The victim runs as a sandbox uid this process has handed out, as a concurrent child would.
      const victimUid = allocateSandboxUid();
      const victim = spawn("sleep", ["30"], { uid: victimUid, gid: SANDBOX_GID, stdio: "ignore" });
      try {
        const result = await run(`export async function executeSkill() {
        try { process.kill(${victim.pid}, "SIGKILL"); return "killed"; } catch (error) { return error.code; }
      }`);
        expect(result).toMatchObject({ ok: true, value: "ERR_ACCESS_DENIED" });
        expect(victim.exitCode).toBe(null);
        expect(() => process.kill(victim.pid!, 0)).not.toThrow();
      } finally {
        victim.kill("SIGKILL");
        releaseSandboxUid(victimUid);
      }
    },
  );

  test("denies spawning a child process", async () => {
    const result = await run(`
      import { spawnSync } from "node:child_process";
      export async function executeSkill() { return spawnSync("cat", ["/etc/passwd"]).stdout?.toString(); }`);
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
  });

  test("denies starting a worker", async () => {
    const result = await run(`
      import { Worker } from "node:worker_threads";
      export async function executeSkill() { new Worker("process.exit(0)", { eval: true }); return {}; }`);
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
  });

  test("kills an infinite loop at the timeout", async () => {
    const started = performance.now();
    const result = await run("export async function executeSkill() { while (true) {} }", {
      timeoutMs: 1_500,
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "timeout", message: "The module did not finish within 1500 ms and was killed." },
    });
    // Killed, not merely reported: well before the suite's own timeout even at load average 20.
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  test("kills a promise kept pending by a live timer at the timeout", async () => {
    const result = await run(
      "export async function executeSkill() { setInterval(() => {}, 1000); return new Promise(() => {}); }",
      { timeoutMs: 1_000 },
    );
    expect(result).toMatchObject({ ok: false, error: { code: "timeout" } });
  });

  test("reports a promise that can never settle as timeout without waiting for the clock", async () => {
    const started = performance.now();
    const result = await run("export async function executeSkill() { return new Promise(() => {}); }");
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "timeout",
        message:
          "executeSkill returned a promise that never settles (the event loop emptied while waiting for it).",
      },
    });
    // Long before the 60 s clock (the message above already says it was not the clock).
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  test("reports a memory bomb as memory_limit", async () => {
    const result = await run(
      "export async function executeSkill() { const hoard = []; while (true) hoard.push(new Array(100_000).fill(Math.random())); }",
      { memoryMb: 64 },
    );
    expect(result).toMatchObject({ ok: false, error: { code: "memory_limit" } });
  });

  test("reports process.exit before returning as process_exit", async () => {
    const result = await run("export async function executeSkill() { process.exit(0); }");
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "process_exit",
        message: "The sandbox process exited with code 0 before executeSkill returned a result.",
      },
    });
  });

  test("runs 8 executions concurrently", async () => {
    const source = `
      import { ethers } from "ethers";
      export async function executeSkill(providerUrl: string, agentAddress: string) {
        const balance = await new ethers.JsonRpcProvider(providerUrl).getBalance(agentAddress);
        return { to: agentAddress, data: "0x", value: balance };
      }`;
    const results = await Promise.all(Array.from({ length: 8 }, () => run(source, { timeoutMs: 20_000 })));
    for (const result of results) expect(result).toMatchObject({ ok: true, value: { value: 5n * oneEther } });
  });
});

describe("network barrier", () => {
  const barrier = ensureNetworkBarrier();

  test.skipIf(barrier.kind === "none")(
    "sandboxed code cannot reach Anvil around the guard, nor any other port",
    async () => {
      const before = await anvilRpc("eth_getBalance", [agent, "latest"]);
      const result = await run(`
      export async function executeSkill(providerUrl) {
        const outcomes = [];
        for (const url of ["${anvil.url}", "http://localhost:${anvil.port}", "http://[::1]:${anvil.port}"]) {
          try {
            await fetch(url, { method: "POST", headers: { "content-type": "application/json" },
              body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: ["${agent}", "0xffffffffffffffffffff"] }),
              signal: AbortSignal.timeout(3000) });
            outcomes.push("reached");
          } catch (error) { outcomes.push(String(error.cause?.code ?? error.message)); }
        }
        const viaGuard = await fetch(providerUrl, { method: "POST", headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }) }).then((r) => r.json());
        return { outcomes, chainId: viaGuard.result };
      }`);
      expect(result).toMatchObject({ ok: true, value: { chainId: "0x38" } });
      const { outcomes } = (result as { value: { outcomes: string[] } }).value;
      expect(outcomes).toHaveLength(3);
      expect(outcomes).not.toContain("reached");
      expect(await anvilRpc("eth_getBalance", [agent, "latest"])).toBe(before);
    },
  );

  test("reports which barrier is in force: the permission model's wherever the sandbox's Node is ≥ 25", () => {
    if (sandboxRuntime().deniesNetwork) expect(barrier.kind).toBe("node-permission");
    else expect(barrier.kind === "none" || barrier.detail.includes(GUARD_HOST)).toBe(true);
    expect(guard.url.startsWith(`http://${GUARD_HOST}:`)).toBe(true);
  });
});

describe("untrusted data from the child", () => {
  test("a $bigint is revived up to 1,000 digits; a longer one stays an object no format accepts", () => {
    const at = (digits: number) =>
      JSON.parse(JSON.stringify({ v: { $bigint: "9".repeat(digits) } }), reviveValue).v;
    expect(at(MAX_BIGINT_DIGITS)).toBe(10n ** 1000n - 1n);
    expect(at(MAX_BIGINT_DIGITS + 1)).toEqual({ $bigint: "9".repeat(1001) });
  });

  test("50 concurrent requests of a module all get their answers: the runner queues past 8 in flight", async () => {
    const result = await run(`export async function executeSkill(providerUrl: string) {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
      const answers = await Promise.all(Array.from({ length: 50 }, async () => {
        const response = await fetch(providerUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
        return (await response.json()).result;
      }));
      // A request aborted while it waits for a slot leaves the queue; the next ones still run.
      const controller = new AbortController();
      const waiting = Array.from({ length: 12 }, (_, i) =>
        fetch(providerUrl, { method: "POST", body, signal: i === 10 ? controller.signal : undefined }).then(
          (response) => response.status,
          (error) => error.name,
        ),
      );
      controller.abort();
      return { answers: [...new Set(answers)], count: answers.length, waiting: await Promise.all(waiting) };
    }`);
    expect(result).toMatchObject({
      ok: true,
      value: { answers: ["0x38"], count: 50, waiting: [...Array(10).fill(200), "AbortError", 200] },
    });
  });

  test("past 8 requests in flight, one written to fd 3 by hand is refused at once: HTTP 429, JSON-RPC -32005", async () => {
    const result = await run(
      `${FD3}
      export async function executeSkill() {
        const statuses: Record<number, number | string> = {};
        process.stdin.on("data", (chunk: unknown) => {
          for (const line of String(chunk).split("\\n")) {
            const id = /"id":(9000\\d\\d)/.exec(line)?.[1];
            if (!id) continue;
            const answer = JSON.parse(line);
            statuses[Number(id)] = answer.status === 429 ? "429 " + JSON.parse(answer.body).error.code : answer.status;
          }
        });
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
        let lines = "";
        for (let id = 900001; id <= 900020; id++)
          lines += JSON.stringify({ type: "rpc", id, method: "POST", path: new URL(${JSON.stringify(guard.url)}).pathname, body }) + "\\n";
        await writeChannel(lines);
        await new Promise((resolve) => setTimeout(resolve, 2000));
        return Object.values(statuses).sort((a, b) => String(a).localeCompare(String(b)));
      }`,
    );
    expect(result, JSON.stringify(result)).toMatchObject({
      ok: true,
      value: [...Array(8).fill(200), ...Array(12).fill("429 -32005")],
    });
  });

  test('a forged bridge request cannot name another server through its path ("@host/")', async () => {
    const arrivals = [0, 0];
    const servers = arrivals.map((_, i) =>
      http.createServer((request, response) => {
        arrivals[i]! += 1;
        request.resume();
        response.end("{}");
      }),
    );
    for (const server of servers)
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const [provider, other] = servers.map((server) => (server.address() as AddressInfo).port);
    try {
      const result = await run(
        `${FD3}
        export async function executeSkill() {
          for (const path of ["@127.0.0.1:${other}/", "//127.0.0.1:${other}/", "x@127.0.0.1:${other}/"])
            await writeChannel(JSON.stringify({ type: "rpc", id: 1000, method: "POST", path, body: "{}" }) + "\\n");
          await new Promise((resolve) => setTimeout(resolve, 500));
          return "done";
        }`,
        { providerUrl: `http://127.0.0.1:${provider}/` },
      );
      expect(result).toMatchObject({ ok: true, value: "done" });
      expect(arrivals).toEqual([0, 0]);
    } finally {
      for (const server of servers) server.close();
    }
  });

  test("a value nested 200,000 levels deep (forged on fd 3) is output_invalid, and 60 levels pass", async () => {
    const deep = await run(
      `${FD3}
      export async function executeSkill() {
        await writeChannel('{"type":"result","ok":true,"value":' + "[".repeat(200000) + "]".repeat(200000) + "}\\n");
        return await new Promise(() => setInterval(() => {}, 1000));
      }`,
    );
    expect(deep).toMatchObject({ ok: false, error: { code: "output_invalid" } });
    const fine = await run(
      `export async function executeSkill() { let v: any = 1; for (let i = 0; i < 60; i++) v = { v }; return v; }`,
    );
    expect(fine.ok).toBe(true);
  });

  test("a SIGKILL the memory cgroup did not count is process_exit, not memory_limit", async () => {
    // The module reports its pid through providerUrl (a server of this test, reached over the pipe);
    // the test then SIGKILLs it from outside, as another process would.
    const server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        response.end("{}");
        process.kill(Number(JSON.parse(body).pid), "SIGKILL");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const result = await run(
        `export async function executeSkill(providerUrl: string) {
          await fetch(providerUrl, { method: "POST", body: JSON.stringify({ pid: process.pid }) });
          return await new Promise(() => setInterval(() => {}, 1000));
        }`,
        { providerUrl: url },
      );
      expect(result).toMatchObject({ ok: false, error: { code: "process_exit" } });
      expect(!result.ok && result.error.message).toMatch(/killed by SIGKILL/);
    } finally {
      server.close();
    }
  });
});

describe("refuse, don't warn: requireSandboxBarriers", () => {
  test("lets every model run where the network barrier holds", () => {
    if (ensureNetworkBarrier().kind === "none") return; // covered by the next test on such set-ups
    expect(requireSandboxBarriers("scripted:/tmp/x")).toEqual({ missing: [], unsafe: false });
  });

  test.skipIf(ensureIptablesBarrier().kind !== "none" || Number(process.versions.node.split(".")[0]) >= 25)(
    "without a network barrier refuses an untrusted model naming what is missing, unless --unsafe-sandbox",
    () => {
      // The sandbox on the harness's own Node (< 25): its permission model leaves sockets open.
      overrideSandboxRuntime(process.execPath);
      try {
        expect(ensureNetworkBarrier().kind).toBe("none");
        expect(() => requireSandboxBarriers("scripted:/tmp/x")).toThrow(
          /Refusing to run the untrusted model scripted:\/tmp\/x: the sandbox lacks a barrier: network \(/,
        );
        expect(() => requireSandboxBarriers("openai:gpt")).toThrow(/--unsafe-sandbox/);
        expect(requireSandboxBarriers("reference")).toEqual({ missing: [], unsafe: false });
        const unsafe = requireSandboxBarriers("scripted:/tmp/x", true);
        expect(unsafe.unsafe).toBe(true);
        expect(unsafe.missing[0]).toMatch(/^network/);
      } finally {
        overrideSandboxRuntime(undefined);
      }
      expect(requireSandboxBarriers("scripted:/tmp/x").missing).toEqual([]);
    },
  );
});

describe("--unsafe-sandbox", () => {
  test("is a run flag, and a run that used it says so after its totals with what was missing", () => {
    expect(parseRunFlags(["--model", "scripted:/tmp/x", "--unsafe-sandbox"]).unsafeSandbox).toBe(true);
    expect(parseRunFlags(["--model", "scripted:/tmp/x"]).unsafeSandbox).toBeUndefined();
    const barrier = { kind: "node-permission", detail: "x" };
    expect(
      renderSandboxWarning({
        network: { kind: "none", detail: "y" },
        memory: barrier,
        unsafe: ["network (y)"],
      }),
    ).toBe(
      "Run with --unsafe-sandbox without: network (y). Scores of untrusted models are not trustworthy here (docs/SECURITY.md).",
    );
    expect(renderSandboxWarning({ network: barrier, memory: barrier })).toBeUndefined();
  });
});

describe("refuse, don't warn: the CLI", () => {
  const bin = path.join(projectRoot, "bin/questbench.mjs");
  // The sandbox on the harness's own Node (< 25), through the environment the CLI's processes inherit.
  const env = {
    ...process.env,
    QUESTBENCH_OPTIONS: "",
    QUESTBENCH_MODEL: "",
    QUESTBENCH_SANDBOX_NODE: process.execPath,
  };
  const args = (out: string) => [
    bin,
    "--model",
    "scripted:tests/scripted/cheats",
    "--tasks",
    "composite_wrap_unwrap_cycle",
    "--out",
    out,
  ];
  const cli = (argv: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, argv, { cwd: projectRoot, env });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });

  test.skipIf(ensureIptablesBarrier().kind !== "none" || Number(process.versions.node.split(".")[0]) >= 25)(
    "stops an untrusted model before anything starts where no network barrier holds; --unsafe-sandbox runs and records it",
    async () => {
      const refused = path.join(projectRoot, ".questbench", `refused-${process.pid}`);
      const first = await cli(args(refused));
      expect(first.code).toBe(1);
      expect(first.stderr).toMatch(
        /^questbench: Refusing to run the untrusted model scripted:tests\/scripted\/cheats: the sandbox lacks a barrier: network \(/m,
      );
      expect(existsSync(refused)).toBe(false);

      const unsafe = path.join(projectRoot, ".questbench", `unsafe-${process.pid}`);
      const second = await cli([...args(unsafe), "--unsafe-sandbox"]);
      expect(second.stdout).toMatch(/Run with --unsafe-sandbox without: network \(/);
      const results = JSON.parse(readFileSync(path.join(unsafe, "results.json"), "utf8"));
      expect(results.manifest.sandbox.network.kind).toBe("none");
      expect(results.manifest.sandbox.unsafe).toEqual([expect.stringMatching(/^network \(/)]);
      const row = leaderboardRow({
        model: results.manifest.model,
        manifest: results.manifest,
        sources: [],
        results,
      });
      expect(row.model).toBe("scripted:tests/scripted/cheats (unsafe sandbox)");
      rmSync(unsafe, { recursive: true, force: true });
    },
    120_000,
  );
});

describe("memory barrier", () => {
  const barrier = ensureMemoryBarrier();
  const parent = memoryCgroupParent();
  // Groups of this process's children whose process is gone (other test files run beside this one).
  const leftovers = () =>
    readdirSync(parent!).filter((name) => {
      const pid = new RegExp(`^child-(\\d+)-of-${process.pid}-`).exec(name)?.[1];
      return pid !== undefined && !existsSync(`/proc/${pid}`);
    });

  test("uses the memory cgroup hierarchy this machine has, when root on Linux", () => {
    const v1 = existsSync("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    if (process.getuid?.() === 0 && v1) {
      expect(barrier.kind).toBe("cgroup-v1");
      expect(parent).toBe("/sys/fs/cgroup/memory/questbench");
    } else if (barrier.kind === "none") expect(barrier.detail).toMatch(/only V8's heap cap applies$/);
  });

  test.skipIf(barrier.kind === "none")(
    "Buffers outside the V8 heap are stopped at the child's memory cgroup (memory_limit)",
    async () => {
      // 6 × 100 MiB of zero-filled Buffers: none of it is V8 heap, so --max-old-space-size cannot stop it.
      const result = await run(
        "export async function executeSkill() { const hoard = []; for (let i = 0; i < 6; i++) hoard.push(Buffer.alloc(100 * 2 ** 20, 1)); return { to: String(hoard.length) }; }",
        { memoryMb: 64 },
      );
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: "memory_limit",
          message: `The module exceeded its memory limit (64 MiB of JavaScript heap, ${64 + MEMORY_HEADROOM_MB} MiB for the whole process; SIGKILL).`,
        },
      });
    },
  );

  test.skipIf(barrier.kind === "none")(
    "a child's group is removed once it exits, and a dead child's leftover group is swept",
    async () => {
      const result = await run(
        "export async function executeSkill() { return { to: '0x0000000000000000000000000000000000000001' }; }",
      );
      expect(result.ok).toBe(true);
      const deadline = Date.now() + 30_000;
      while (leftovers().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(leftovers()).toEqual([]);

      // A harness killed with SIGKILL leaves its children's groups behind; pid 4194305 exceeds pid_max.
      const stale = `child-4194305-of-${process.pid}-deadbeef`;
      mkdirSync(path.join(parent!, stale));
      expect(leftovers()).toEqual([stale]);
      sweepMemoryCgroups();
      expect(leftovers()).toEqual([]);
    },
  );
});

/**
 * Runs tests/helpers/sandboxHarness.ts as a harness process of its own, started by `bash -c SCRIPT`
 * (the script's `$HARNESS` runs it on MODULE), and returns its report line and bash's exit status.
 */
function harnessUnder(
  script: string,
  module: string,
  env: Record<string, string> = {},
): Promise<{ status: number | null; report: any; stderr: string; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), "qb-harness-"));
  const moduleFile = path.join(dir, "module.ts");
  writeFileSync(moduleFile, module);
  const harness = `"${process.execPath}" --import tsx tests/helpers/sandboxHarness.ts "${moduleFile}"`;
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], {
      cwd: projectRoot,
      env: { ...process.env, HARNESS: harness, DIR: dir, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("close", (status) => {
      const line = stdout.trim().split("\n").at(-1) ?? "";
      let report: unknown;
      try {
        report = JSON.parse(line);
      } catch {
        report = undefined;
      }
      resolve({ status, report, stderr: stderr.slice(-4000), dir });
    });
  });
}

describe("inherited descriptors", () => {
  test("a pipe the harness's launcher left open is neither readable nor writable from model code, and the harness opens nothing a child inherits", async () => {
    // fd 40: a pipe holding a secret; fd 41: a pipe into a file. Both inheritable, as an ordinary
    // shell's `exec` leaves them; the harness is started with them open. Above 15: Node marks fds
    // 0–15 (and any open run after them) close-on-exec as it starts (libuv's
    // uv_disable_stdio_inheritance), so what its children could inherit lies above a gap.
    const secret = `secret-${Date.now()}`;
    const { status, report, stderr, dir } = await harnessUnder(
      `exec 40< <(printf %s "$SECRET")
       exec 41> >(cat > "$DIR/written")
       eval "$HARNESS --chain"; status=$?
       exec 40<&- 41>&-; wait $!; exit $status`,
      // Every fd 3–64 is wrapped as the attack did; the two leaked ones are read and written. The
      // rest are only wrapped, not read: reading a pipe Node keeps for itself aborts the process.
      `export async function executeSkill() {
        const Stream = process.stdin.constructor as any;
        const seen: Record<string, string> = {};
        for (let fd = 3; fd <= 64; fd++) {
          const leaked = fd === 40 || fd === 41;
          let stream: any;
          try {
            stream = new Stream({ fd, readable: fd === 40, writable: fd === 41 });
          } catch (error: any) {
            seen[fd] = "refused " + error?.code;
            continue;
          }
          if (!leaked) {
            seen[fd] = "wrapped";
            continue;
          }
          seen[fd] = await new Promise<string>((resolve) => {
            if (fd === 41)
              return stream.write("written by the module\\n", (error: any) => resolve(error ? "write failed " + error.code : "written"));
            let text = "";
            stream.on("data", (chunk: unknown) => { text += String(chunk); });
            stream.on("error", (error: any) => resolve("read " + JSON.stringify(text) + " error " + error?.code));
            stream.on("end", () => resolve("read " + JSON.stringify(text)));
            setTimeout(() => resolve("read " + JSON.stringify(text)), 500);
          });
        }
        return seen;
      }`,
      { SECRET: secret },
    );
    const written = readFileSync(path.join(dir, "written"), "utf8");
    rmSync(dir, { recursive: true, force: true });
    expect(status, stderr).toBe(0);
    // The precondition: the harness did inherit both.
    expect(report.inheritableAtStart).toEqual(expect.arrayContaining([40, 41]));
    expect(report.result.ok, JSON.stringify(report.result)).toBe(true);
    const seen = report.result.value as Record<string, string>;
    expect(JSON.stringify(seen)).not.toContain(secret);
    expect(seen["40"]).toMatch(/^refused /);
    expect(seen["41"]).toMatch(/^refused /);
    expect(written).toBe("");
    // Anvil, the guard, esbuild and a sandbox child ran: nothing new a child could inherit.
    expect(report.inheritableAtEnd).toEqual(report.inheritableAtStart);
  });
});

/** Pids of live processes whose command line contains `text`. */
function processesMentioning(text: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("a reply flood", () => {
  test("200 concurrent eth_calls of 4 MB answers end the attempt as memory_limit, the harness under 640 MiB, no process left", async () => {
    // Each call is creation code that reverts with 512 KiB of zeros; Anvil answers with about 4 MB
    // of JSON. Unbounded (every request forwarded at once, every answer passed on), the harness
    // passed 900 MiB and the attempt ran into its 120 s timeout; it idles at about 135 MiB.
    const { status, report, stderr, dir } = await harnessUnder(
      'eval "$HARNESS --chain"',
      `export async function executeSkill(providerUrl: string) {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ data: "0x620800006000fd", gas: "0x1000000" }, "latest"] });
        const sizes = await Promise.all(Array.from({ length: 200 }, async () => {
          const response = await fetch(providerUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
          return (await response.text()).length;
        }));
        return sizes.reduce((a, b) => a + b, 0);
      }`,
    );
    rmSync(dir, { recursive: true, force: true });
    expect(status, stderr).toBe(0);
    expect(report.result).toEqual({
      ok: false,
      error: {
        code: "memory_limit",
        message: "The module's requests drew more than 64 MiB of answers from the chain and it was stopped.",
      },
    });
    expect(report.peakRssKb).toBeLessThan(640 * 1024);
    // The harness has exited: neither its Anvil nor a sandbox child of its stage is left.
    const left = () => [
      ...processesMentioning(`questbench-sandbox-${report.pid}-`),
      ...(existsSync(`/proc/${report.anvilPid}`) ? [report.anvilPid] : []),
    ];
    for (let waited = 0; left().length > 0 && waited < 5_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(left()).toEqual([]);
  });
});
