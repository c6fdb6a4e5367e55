import { execFileSync, spawn } from "node:child_process";
import { existsSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type ExecuteModuleParameters,
  executeModule,
  type RpcGuard,
  startRpcGuard,
} from "../src/sandbox/index.ts";
import { SANDBOX_BUILTINS } from "../src/sandbox/sandboxBuiltins.ts";
import { sandboxRuntime } from "../src/sandbox/sandboxRuntime.ts";
import { type AnvilHandle, startAnvil } from "../src/world/anvil.ts";

// Deny by default (docs/SECURITY.md, "Built-in modules" and "Hostile model code"): every built-in of
// the shipped sandbox Node that the allowlist does not name is refused at every door, and each class
// of attack that once got out is refused. Runs as root and, in CI, as an ordinary user (.ci/run).

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const agent = "0x00000000000000000000000000000000000a9e57";
const allowed = new Set(Object.keys(SANDBOX_BUILTINS));

let anvil: AnvilHandle;
let guard: RpcGuard;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 56 });
  guard = await startRpcGuard({ upstreamUrl: anvil.url });
});

afterAll(async () => {
  await guard?.close();
  await anvil?.stop();
});

function run(source: string, overrides: Partial<ExecuteModuleParameters> = {}) {
  return executeModule({
    source,
    providerUrl: guard.url,
    agentAddress: agent,
    deployedContracts: {},
    timeoutMs: 15_000,
    ...overrides,
  });
}

/** The value a module returned, or the test fails with the sandbox's error. */
async function value<T>(source: string, overrides: Partial<ExecuteModuleParameters> = {}): Promise<T> {
  const result = await run(source, overrides);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

/**
 * A server standing in for providerUrl that hands the test the first request body a module posts
 * (a child tells the harness side where its module is while it keeps running).
 */
async function reportServer(): Promise<{ url: string; received: Promise<string>; close: () => void }> {
  let report!: (body: string) => void;
  const received = new Promise<string>((resolve) => {
    report = resolve;
  });
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      report(body);
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, received, close: () => server.close() };
}

/** What the sandbox's own Node ships: every built-in module and every process.binding name. */
function shippedBuiltins(flags: string[] = []): { builtins: string[]; bindings: string[] } {
  const probe = `const m = require("node:module");
    for (const name of m.builtinModules) { try { require(name); } catch {} }
    const bindings = [...new Set(process.moduleLoadList.filter((x) => x.startsWith("Internal Binding ")).map((x) => x.slice(17)))];
    console.log(JSON.stringify({ builtins: m.builtinModules, bindings }));`;
  const out = execFileSync(sandboxRuntime().execPath, ["--no-warnings", ...flags, "-e", probe], {
    encoding: "utf8",
    env: {},
  });
  return JSON.parse(out) as { builtins: string[]; bindings: string[] };
}

const shipped = shippedBuiltins();
/** Built-ins the child's flags remove altogether (node:sqlite, node:ffi): not even a built-in there. */
const removed = new Set(
  shipped.builtins.filter((name) => !shippedBuiltins(sandboxRuntime().lockdownFlags).builtins.includes(name)),
);
const bare = (name: string) => name.replace(/^node:/, "");
const denied = shipped.builtins.filter((name) => !allowed.has(bare(name)));

describe("the built-in allowlist", () => {
  test("the shipped Node's list includes the node:-only modules and the allowlist names only real built-ins", () => {
    expect(shipped.builtins).toEqual(
      expect.arrayContaining(["node:sqlite", "node:test", "node:sea", "fs", "v8"]),
    );
    for (const name of allowed) expect(shipped.builtins).toContain(name);
    expect(shipped.bindings).toEqual(expect.arrayContaining(["fs", "contextify", "process_methods"]));
    expect([...removed]).toEqual(expect.arrayContaining(["node:sqlite"]));
  });

  test("every other built-in is refused by dynamic import (node: and bare), import.meta.resolve and process.getBuiltinModule", async () => {
    const outcomes = await value<Record<string, string[]>>(
      `export async function executeSkill(_u: string, _a: string, c: Record<string, string>) {
        const names: string[] = JSON.parse(c.names);
        const out: Record<string, string[]> = {};
        const code = async (f: () => unknown) => { try { await f(); return "loaded"; } catch (e: any) { return String(e?.code); } };
        for (const name of names) {
          const bare = name.replace(/^node:/, "");
          out[name] = [
            await code(() => import("node:" + bare)),
            name.startsWith("node:") ? "ERR_ACCESS_DENIED" : await code(() => import(bare)),
            await code(() => import.meta.resolve("node:" + bare)),
            await code(() => { if (process.getBuiltinModule("node:" + bare) === undefined) throw { code: "absent" }; }),
          ];
        }
        return out;
      }`,
      { deployedContracts: { names: JSON.stringify(shipped.builtins) } },
    );
    for (const name of shipped.builtins)
      expect([name, outcomes[name]]).toEqual([
        name,
        allowed.has(bare(name))
          ? ["loaded", "loaded", "loaded", "loaded"]
          : [
              "ERR_ACCESS_DENIED",
              "ERR_ACCESS_DENIED",
              "ERR_ACCESS_DENIED",
              removed.has(name) ? "absent" : "ERR_ACCESS_DENIED",
            ],
      ]);
  });

  test("every other built-in is refused by a static import, with its name in the reason", async () => {
    const results: [string, string][] = [];
    for (let i = 0; i < denied.length; i += 4) {
      const batch = denied.slice(i, i + 4);
      const outcomes = await Promise.all(
        batch.map((name) =>
          run(
            `import * as m from "${name}";\nexport async function executeSkill() { return Object.keys(m).length; }`,
          ),
        ),
      );
      batch.forEach((name, k) => {
        const outcome = outcomes[k]!;
        results.push([name, outcome.ok ? "loaded" : `${outcome.error.code}: ${outcome.error.message}`]);
      });
    }
    for (const [name, outcome] of results)
      expect(outcome, name).toMatch(
        new RegExp(
          removed.has(name)
            ? `^permission_denied: Importing ${name} is not allowed in the benchmark sandbox`
            : `^permission_denied: Loading the built-in module ${name} is not allowed in the benchmark sandbox`,
        ),
      );
  });

  test("no require, and every process.binding / _linkedBinding name is refused", async () => {
    const outcomes = await value<{ require: string; mainModule: string; bindings: Record<string, string[]> }>(
      `export async function executeSkill(_u: string, _a: string, c: Record<string, string>) {
        const code = (f: () => unknown) => { try { f(); return "loaded"; } catch (e: any) { return String(e?.code); } };
        const bindings: Record<string, string[]> = {};
        for (const name of JSON.parse(c.names))
          bindings[name] = [code(() => (process as any).binding(name)), code(() => (process as any)._linkedBinding(name))];
        return { require: typeof (globalThis as any).require, mainModule: typeof (process as any).mainModule, bindings };
      }`,
      { deployedContracts: { names: JSON.stringify(shipped.bindings) } },
    );
    expect(outcomes.require).toBe("undefined");
    expect(outcomes.mainModule).toBe("undefined");
    for (const name of shipped.bindings)
      expect([name, outcomes.bindings[name]]).toEqual([name, ["ERR_ACCESS_DENIED", "ERR_ACCESS_DENIED"]]);
  });

  test("the model cannot undo the lockdown: redefining the doors, polluting the prototypes the hook reads", async () => {
    const outcome = await value<string[]>(
      `export async function executeSkill() {
        const tries: string[] = [];
        const code = async (f: () => unknown) => { try { await f(); return "done"; } catch (e: any) { return String(e?.code ?? e?.name); } };
        tries.push(await code(() => Object.defineProperty(process, "getBuiltinModule", { value: () => 1 })));
        tries.push(await code(() => { (process as any).binding = () => 1; if ((process as any).binding("fs") === 1) throw { code: "replaced" }; }));
        tries.push(await code(() => Object.defineProperty(process, "env", { value: { A: "1" } })));
        // What the hook could read if it used the live intrinsics:
        String.prototype.startsWith = () => true;
        (Set.prototype as any).has = () => true;
        (Object as any).hasOwn = () => true;
        (Object.prototype as any).parentURL = "file:///";
        (Object.prototype as any).shortCircuit = true;
        JSON.parse = () => ({});
        tries.push(await code(() => import("node:fs")));
        tries.push(await code(() => process.getBuiltinModule("node:child_process")));
        tries.push(await code(() => import("data:text/javascript,export default 1")));
        tries.push(await code(() => import("${path.join(projectRoot, "package.json")}", { with: { type: "json" } })));
        return tries;
      }`,
    );
    expect(outcome).toEqual([
      "TypeError",
      "TypeError",
      "TypeError",
      "ERR_ACCESS_DENIED",
      "ERR_ACCESS_DENIED",
      "ERR_ACCESS_DENIED",
      "ERR_ACCESS_DENIED",
    ]);
  });

  test("starts the child without the experimental built-ins it does not need", () => {
    const flags = sandboxRuntime().lockdownFlags;
    expect(flags).toEqual(
      expect.arrayContaining(["--no-experimental-sqlite", "--no-experimental-websocket", "--no-addons"]),
    );
  });
});

describe("hostile model code, one test per class that once got out", () => {
  test("node:sqlite cannot open a file, not for reading, not for writing", async () => {
    const target = path.join(projectRoot, ".questbench", `sqlite-write-${process.pid}.db`);
    const result = await run(
      `import { DatabaseSync } from "node:sqlite";
      export async function executeSkill() {
        const db = new DatabaseSync("${path.join(projectRoot, "package.json")}", { readOnly: true });
        new DatabaseSync("${target}").exec("create table t(x)");
        return String(db);
      }`,
    );
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    expect(!result.ok && result.error.message).toMatch(/node:sqlite is not allowed/);
    const viaGlobal = await value<string[]>(
      `export async function executeSkill() {
        const out: string[] = [];
        for (const f of [() => process.getBuiltinModule("node:sqlite"), () => import("node:sqlite")])
          try { out.push((await f()) === undefined ? "absent" : "loaded"); } catch (e: any) { out.push(e.code); }
        return out;
      }`,
    );
    // Two barriers: the flag removes the module, and the allowlist would refuse it.
    expect(viaGlobal).toEqual(["absent", "ERR_ACCESS_DENIED"]);
    expect(existsSync(target)).toBe(false);
    rmSync(target, { force: true });
  });

  test("a sibling child's module cannot be read, even knowing its path", async () => {
    // The victim tells the test where its module is (through providerUrl) and stays alive meanwhile.
    const server = await reportServer();
    try {
      const victim = run(
        `const SECRET = "victim-secret-${process.pid}";
        export async function executeSkill(providerUrl: string) {
          await fetch(providerUrl, { method: "POST", body: new URL(import.meta.url).pathname });
          await new Promise((resolve) => setTimeout(resolve, 4000));
          return SECRET.length;
        }`,
        { providerUrl: server.url },
      );
      const file = await server.received;
      const attacker = await value<string[]>(
        `export async function executeSkill(_u: string, _a: string, c: Record<string, string>) {
          const out: string[] = [];
          const tries = [
            () => import(c.file),
            () => import("file://" + c.file),
            async () => (await import("node:fs")).readFileSync(c.file, "utf8"),
            async () => new (await import("node:sqlite")).DatabaseSync(c.file, { readOnly: true }),
            () => process.getBuiltinModule("fs"),
          ];
          for (const f of tries) try { out.push("read " + String(await f())); } catch (e: any) { out.push(String(e.code)); }
          return out;
        }`,
        { deployedContracts: { file } },
      );
      expect(attacker).toEqual(Array(5).fill("ERR_ACCESS_DENIED"));
      expect(JSON.stringify(attacker)).not.toContain("victim-secret");
      expect(await victim).toMatchObject({ ok: true });
    } finally {
      server.close();
    }
  });

  test("the child's folder and module belong to it alone: 0500/0400 as its own uid when root", async () => {
    // Checked from the harness side while the child runs: it reports its module's path through providerUrl.
    const server = await reportServer();
    try {
      const running = run(
        `export async function executeSkill(providerUrl: string) {
          await fetch(providerUrl, { method: "POST", body: JSON.stringify({ file: new URL(import.meta.url).pathname, uid: process.getuid!() }) });
          await new Promise((resolve) => setTimeout(resolve, 1000));
          return 1;
        }`,
        { providerUrl: server.url },
      );
      const { file, uid } = JSON.parse(await server.received) as { file: string; uid: number };
      const dir = statSync(path.dirname(file));
      const module = statSync(file);
      if (process.getuid?.() === 0) {
        expect([dir.uid, dir.mode & 0o777, module.uid, module.mode & 0o777]).toEqual([
          uid,
          0o500,
          uid,
          0o400,
        ]);
        expect(uid).not.toBe(0);
      } else {
        expect([dir.mode & 0o777, module.mode & 0o777]).toEqual([0o700, 0o400]);
      }
      expect(file.startsWith(projectRoot)).toBe(false);
      expect(await running).toMatchObject({ ok: true, value: 1 });
    } finally {
      server.close();
    }
  });

  test("no file can be written, through node:fs, node:sqlite or a stream", async () => {
    const target = path.join(projectRoot, ".questbench", `written-${process.pid}`);
    const outcome = await value<string[]>(
      `export async function executeSkill(_u: string, _a: string, c: Record<string, string>) {
        const out: string[] = [];
        const tries = [
          async () => (await import("node:fs")).writeFileSync(c.target, "x"),
          async () => new (await import("node:sqlite")).DatabaseSync(c.target).exec("create table t(x)"),
          async () => (await import("node:fs/promises")).writeFile(c.target, "x"),
          () => (process as any).binding("fs"),
        ];
        for (const f of tries) try { await f(); out.push("written"); } catch (e: any) { out.push(String(e.code)); }
        return out;
      }`,
      { deployedContracts: { target } },
    );
    expect(outcome).toEqual(Array(4).fill("ERR_ACCESS_DENIED"));
    expect(existsSync(target)).toBe(false);
  });

  test.each([
    ["Error.stackTraceLimit = 0", "Error.stackTraceLimit = 0; return process.env.OPENAI_API_KEY;"],
    [
      "a forged Error.prepareStackTrace",
      'Error.prepareStackTrace = () => "Error\\n    at get (node:internal/util/colors:1:1)"; return process.env.OPENAI_API_KEY;',
    ],
    [
      "a prepareStackTrace returning no frames, through Object.keys",
      "Error.prepareStackTrace = () => undefined; Error.stackTraceLimit = 0; return Object.keys(process.env);",
    ],
    ["a function made from a string", 'return new Function("return Object.keys(process.env)")();'],
    // Node's own frame enumerates (JSON.stringify inside util.format): refused, whoever asks.
    [
      "util.format from a node: frame",
      'const util = await import("node:util"); return util.format("%j", process.env);',
    ],
    [
      "a key Node itself reads, then a secret",
      "void process.env.FORCE_COLOR; return process.env.OPENAI_API_KEY;",
    ],
    [
      "a timer callback",
      "return await new Promise((resolve) => setTimeout(() => resolve(JSON.stringify(process.env)), 0));",
    ],
  ])("an environment read with %s is refused", async (_what, body) => {
    process.env.OPENAI_API_KEY = "sk-questbench-lockdown-secret";
    try {
      const result = await run(`export async function executeSkill() { ${body} }`);
      expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
      expect(!result.ok && result.error.message).toMatch(/process\.env is not allowed/);
      expect(JSON.stringify(result)).not.toContain("sk-questbench");
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });

  test("process.report (which lists the environment) is refused", async () => {
    const result = await run(
      "export async function executeSkill() { return JSON.stringify((process as any).report.getReport()).length; }",
    );
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    expect(!result.ok && result.error.message).toMatch(/process\.report is not allowed/);
  });

  test("natives syntax cannot be turned on: node:v8 is refused at every door", async () => {
    const outcome = await value<string[]>(
      `export async function executeSkill() {
        const out: string[] = [];
        const tries = [
          async () => (await import("node:v8")).setFlagsFromString("--allow-natives-syntax"),
          () => process.getBuiltinModule("v8").setFlagsFromString("--allow-natives-syntax"),
          async () => (await import("v8")).setFlagsFromString("--allow-natives-syntax"),
        ];
        for (const f of tries) try { await f(); out.push("set"); } catch (e: any) { out.push(String(e.code)); }
        try { out.push(String(new Function("return %IsBeingInterpreted()")())); } catch (e: any) { out.push(e.name); }
        return out;
      }`,
    );
    expect(outcome).toEqual(["ERR_ACCESS_DENIED", "ERR_ACCESS_DENIED", "ERR_ACCESS_DENIED", "SyntaxError"]);
  });

  test("host files cannot be probed: an existing and a missing path answer alike at every door", async () => {
    const outcome = await value<Record<string, string[]>>(
      `export async function executeSkill(_u: string, _a: string, c: Record<string, string>) {
        const code = async (f: () => unknown) => { try { return "found " + String(await f()); } catch (e: any) { return String(e.code); } };
        const out: Record<string, string[]> = {};
        for (const file of [c.existing, c.missing])
          out[file === c.existing ? "existing" : "missing"] = [
            await code(() => import.meta.resolve(file)),
            await code(() => import.meta.resolve("file://" + file)),
            await code(async () => (await import("node:module")).createRequire(import.meta.url).resolve(file)),
            await code(async () => (await import("node:fs")).realpathSync(file)),
            await code(() => import(file)),
          ];
        return out;
      }`,
      {
        deployedContracts: {
          existing: path.join(projectRoot, "package.json"),
          missing: path.join(projectRoot, "no-such-file.json"),
        },
      },
    );
    expect(outcome.existing).toEqual(Array(5).fill("ERR_ACCESS_DENIED"));
    expect(outcome.missing).toEqual(outcome.existing);
  });

  test("process._debugProcess cannot open another process's inspector (SIGUSR1 past the permission model)", async () => {
    // The victim runs as the harness's user, as the harness itself does for an ordinary user.
    const victim = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30_000)"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    victim.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    try {
      const outcome = await value<string[]>(
        `export async function executeSkill() {
          const out: string[] = [];
          for (const f of [() => (process as any)._debugProcess(${victim.pid}), () => (process as any)._debugEnd()])
            try { f(); out.push("sent"); } catch (e: any) { out.push(String(e.code)); }
          await new Promise((resolve) => setTimeout(resolve, 500));
          return out;
        }`,
      );
      expect(outcome).toEqual(["ERR_ACCESS_DENIED", "ERR_ACCESS_DENIED"]);
      expect(stderr).not.toContain("Debugger listening");
    } finally {
      victim.kill("SIGKILL");
    }
  });

  test("an Object.prototype.toJSON cannot forge the runner's own message", async () => {
    const result = await run(
      `export async function executeSkill() {
        (Object.prototype as any).toJSON = () => ({ type: "result", ok: true, value: { to: "0x0000000000000000000000000000000000000001", forged: true } });
        throw new Error("after the pollution");
      }`,
    );
    expect(result).toMatchObject({
      ok: false,
      error: { code: "runtime_error", message: "Error: after the pollution" },
    });
  });
});

describe("the guard's replies are bounded", () => {
  test("an answer from the node over maxReplyBytes is dropped while it streams: -32603, nothing held", async () => {
    const small = await startRpcGuard({ upstreamUrl: anvil.url, maxReplyBytes: 256 * 1024 });
    try {
      // Creation code run by an eth_call without \`to\` that reverts with 4 KiB, then 64 KiB of zeros
      // (PUSH3 size, PUSH1 0, REVERT): a 7-byte request, an answer as large as its gas allows. Anvil
      // answers about 8 bytes a byte (the reason escaped as \\u0000, and the data as hex): 32 KiB
      // fit under the cap, 512 KiB do not.
      const result = await value<{ small: unknown; big: { error?: unknown } }>(
        `export async function executeSkill(providerUrl: string) {
          const post = async (data: string) => (await fetch(providerUrl, { method: "POST", headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ data, gas: "0x1c9c380" }, "latest"] }) })).json();
          return { small: (await post("0x620010006000fd")).error?.data?.length, big: await post("0x620100006000fd") };
        }`,
        { providerUrl: small.url },
      );
      expect(result.small).toBe(2 + 2 * 0x1000);
      expect(result.big.error).toEqual({
        code: -32603,
        message: `The chain node's answer is larger than ${256 * 1024} bytes.`,
      });
    } finally {
      await small.close();
    }
  });
});
