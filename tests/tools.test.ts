import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getAddress, keccak256, parseEther, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { providerModel } from "../src/models/providerModel.ts";
import { resolveModelName } from "../src/models/registry.ts";
import { modelSettings } from "../src/models/settings.ts";
import type { ModelClient } from "../src/models/types.ts";
import { writeReport } from "../src/reporting/report.ts";
import type { InstanceResult } from "../src/results/types.ts";
import { instantiate } from "../src/tasks/instantiate.ts";
import { displayValue } from "../src/tasks/placeholders.ts";
import { taskById, useAttempts, world } from "./helpers/attempts.ts";
import { fixtureInstance, fixtureResults, rowsOf, writeRun } from "./helpers/reportFixtures.ts";
import {
  type Behavior,
  type FakeProviderServer,
  type FakeRequest,
  startFakeProvider,
} from "./providers/fakeServer.ts";

// `--protocol tools` (docs/PROTOCOLS.md) end to end on a real Anvil: multi-turn tool conversations
// through the real `openai` and `@anthropic-ai/sdk` clients against the local fake provider, the
// response cache replaying one with no request, and the scripted model's tool-call files for the
// turn budget, wrong answers and attempts to reach past the tools.

const attempt = useAttempts(2);
const TOOLS = { protocol: "tools" } as const;
let script: (req: FakeRequest) => Behavior = () => ({ kind: "answer", text: "no script" });
let server: FakeProviderServer;
beforeAll(async () => {
  server = await startFakeProvider((req) => script(req));
});
afterAll(async () => {
  await server?.close();
});

/** An EOA no task involves. */
const STRANGER = getAddress(`0x${keccak256(toHex("questbench tools test: a stranger")).slice(-40)}`);

/** The request of a `bnb_transfer_basic` prompt: "Send X BNB to 0x…". */
function transferOf(req: FakeRequest): { to: string; wei: string } {
  const user = req.messages.find((m) => m.role === "user")!;
  const text = typeof user.content === "string" ? user.content : JSON.stringify(user.content);
  const task = text.slice(text.indexOf("Task:"));
  const match = /([\d.]+) BNB\b[\s\S]*?(0x[0-9a-fA-F]{40})/.exec(task);
  if (!match) throw new Error(`no transfer in ${task.slice(0, 200)}`);
  return { to: match[2]!, wei: parseEther(match[1]!).toString() };
}

/** The turns of one scripted conversation, answered by request order: turn i of the attempt is request i. */
function conversation(turns: ((transfer: { to: string; wei: string }) => Behavior)[]) {
  const start = server.requests.length;
  script = (req) => {
    const turn = req.n - start - 1;
    try {
      return turns[Math.min(turn, turns.length - 1)]!(transferOf(req));
    } catch (error) {
      // A script that cannot answer fails the test at once (400, not retried) instead of hanging it.
      return { kind: "status", status: 400, body: { error: { message: String(error) } } };
    }
  };
  return start;
}

const call = (id: string, name: string, args: unknown) => ({
  id,
  name,
  arguments: typeof args === "string" ? args : JSON.stringify(args),
});

const apis: [string, (cacheDir: string, cache?: "on" | "replay") => ModelClient][] = [
  [
    "openai",
    (cacheDir, cache = "on") => {
      const env = {};
      return providerModel(
        resolveModelName(`openai-compatible:${server.openaiBaseURL}#fake-agent`, env),
        {
          ...modelSettings({ cacheDir, cache, maxRetries: 0, requestTimeout: 30 }, env),
          malformedRetryDelayMs: 20,
        },
        env,
      );
    },
  ],
  [
    "anthropic",
    (cacheDir, cache = "on") => {
      const env = { ANTHROPIC_API_KEY: "sk-fake", ANTHROPIC_BASE_URL: server.anthropicBaseURL };
      return providerModel(
        resolveModelName("claude-haiku-4.5", env),
        {
          ...modelSettings({ cacheDir, cache, maxRetries: 0, requestTimeout: 30 }, env),
          malformedRetryDelayMs: 20,
        },
        env,
      );
    },
  ],
];

describe.each(apis)("a tool-using conversation through the %s SDK", (api, make) => {
  const cacheDir = mkdtempSync(path.join(tmpdir(), "qb-tools-cache-"));
  let first: InstanceResult;
  let requests: FakeRequest[];

  test("a malformed call, an unknown tool and bad arguments are explained results; the transfer then scores 100", async () => {
    const start = conversation([
      () => ({
        kind: "tools",
        text: "Let me look first.",
        calls: [
          call("c1", "get_balance", {}),
          call("c2", "get_balance", '{"account": '),
          call("c3", "anvil_setBalance", { address: world.agent.address, balance: "0x1" }),
        ],
      }),
      ({ to }) => ({ kind: "tools", calls: [call("c4", "send_transaction", { to, value: "0.01" })] }),
      ({ to, wei }) => ({
        kind: "tools",
        calls: [
          call("c5", "simulate", { to, value: wei }),
          call("c6", "send_transaction", { to, value: wei }),
        ],
      }),
      () => ({ kind: "tools", calls: [call("c7", "finish", {})] }),
    ]);
    first = await attempt("bnb_transfer_basic", make(cacheDir), 1, 0, TOOLS);
    requests = server.requests.slice(start);
    expect(first.failure).toBeNull();
    expect(first.score).toBe(100);
    expect(first.integrityViolations).toEqual([]);
    const calls = first.tools!.calls;
    expect(calls.map((c) => [c.name, c.ok])).toEqual([
      ["get_balance", true],
      ["get_balance", false],
      ["anvil_setBalance", false],
      ["send_transaction", false],
      ["simulate", true],
      ["send_transaction", true],
      ["finish", true],
    ]);
    // Anthropic's tool input is always an object: the unparsable text arrives as `_raw`, a bad argument.
    expect(calls[1]!.result).toMatch(api === "openai" ? /malformed arguments: not JSON/ : /bad arguments/);
    expect(calls[2]!.result).toMatch(/unknown tool \\"anvil_setBalance\\"; the tools are read_contract/);
    expect(calls[3]!.result).toMatch(/bad arguments for send_transaction: \/value must match pattern/);
    expect(first.tools).toMatchObject({
      turns: 4,
      endedBy: "finish",
      sent: 1,
      signed: 0,
      simulatedBeforeSent: true,
    });
    expect(requests).toHaveLength(4);
  });

  test("the wire carries the tools and answers every call of a turn with its result, by id", () => {
    const [r1, r2] = requests;
    const names =
      api === "openai"
        ? r1!.body.tools.map((t: any) => t.function.name)
        : r1!.body.tools.map((t: any) => t.name);
    expect(names).toEqual([
      "read_contract",
      "eth_call",
      "get_balance",
      "get_allowance",
      "get_chain_state",
      "simulate",
      "send_transaction",
      "answer",
      "refuse",
      "finish",
    ]);
    if (api === "openai") {
      const tool = r2!.body.messages.filter((m: any) => m.role === "tool");
      expect(tool.map((m: any) => m.tool_call_id)).toEqual(["c1", "c2", "c3"]);
      expect(r2!.body.messages.find((m: any) => m.tool_calls)?.tool_calls.map((c: any) => c.id)).toEqual([
        "c1",
        "c2",
        "c3",
      ]);
    } else {
      const last = r2!.body.messages.at(-1);
      expect(last.role).toBe("user");
      expect(last.content.map((b: any) => [b.type, b.tool_use_id])).toEqual([
        ["tool_result", "c1"],
        ["tool_result", "c2"],
        ["tool_result", "c3"],
      ]);
    }
    expect(JSON.stringify(r2!.body.messages)).toContain(world.agent.address);
  });

  test("the response cache replays the conversation with no request and the same score", async () => {
    const before = server.requests.length;
    script = () => ({ kind: "status", status: 500 });
    const again = await attempt("bnb_transfer_basic", make(cacheDir, "replay"), 1, 0, TOOLS);
    expect(server.requests.length - before).toBe(0);
    expect(again.score).toBe(first.score);
    expect(again.tools!.calls).toEqual(first.tools!.calls);
  });
});

test("an endpoint that refuses tool definitions stops the run at its first answer, in one line, not a fallback", async () => {
  script = () => ({
    kind: "status",
    status: 400,
    body: {
      error: {
        message: "registry.ollama.ai/library/fake does not support tools",
        type: "invalid_request_error",
      },
    },
  });
  const env = {};
  const model = providerModel(
    resolveModelName(`openai-compatible:${server.openaiBaseURL}#no-tools`, env),
    {
      ...modelSettings({ cacheDir: mkdtempSync(path.join(tmpdir(), "qb-tools-cache-")), cache: "off" }, env),
    },
    env,
  );
  const error = await attempt("bnb_transfer_basic", model, 1, 0, TOOLS).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  );
  expect(error?.code).toBe("run_stopped");
  expect(error?.message).toMatch(
    /^run stopped: .*does not support tools — the endpoint does not take tool definitions, which --protocol tools needs .*Run this model without --protocol tools$/,
  );
  expect(error?.message.split("\n")).toHaveLength(1);
});

describe("scripted tool-call files", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "qb-tools-scripted-"));
  const write = (name: string, taskId: string, turns: unknown) => {
    mkdirSync(path.join(dir, name), { recursive: true });
    writeFileSync(path.join(dir, name, `${taskId}.tools.json`), JSON.stringify(turns));
    return `scripted:${path.join(dir, name)}`;
  };

  test("a conversation that never ends is its own failure class, turn_budget", async () => {
    const model = write("idle", "query_bnb_balance", [[{ name: "get_balance", arguments: {} }]]);
    const result = await attempt("query_bnb_balance", model, 1, 0, TOOLS);
    expect(result.tools).toMatchObject({ endedBy: "turn_budget", turns: 12, turnBudget: 12, toolCalls: 1 });
    expect(result.failure?.class).toBe("turn_budget");
    expect(result.score).toBeLessThan(60);
  });

  test("the transfer plus a payment nobody asked for fails the effect check", async () => {
    const task = taskById.get("bnb_transfer_basic")!;
    const { params } = await instantiate(task.spec, { runSeed: 1, epoch: 0, world });
    const model = write("extra", "bnb_transfer_basic", [
      [
        {
          name: "send_transaction",
          arguments: { to: "{{to}}", value: parseEther(displayValue(params.x!)).toString() },
        },
        { name: "send_transaction", arguments: { to: STRANGER, value: "1000000000000000" } },
        { name: "finish", arguments: {} },
      ],
    ]);
    const result = await attempt("bnb_transfer_basic", model, 1, 0, TOOLS);
    expect(result.tools!.calls.map((c) => c.ok)).toEqual([true, true, true]);
    expect(result.checks.find((c) => c.name === "effects")).toMatchObject({ passed: false });
    expect(result.score).toBeLessThan(60);
  });

  test("tools reach the chain only through the guard: no cheat method, no other account, no foreign signature", async () => {
    const rich = world.rich.address;
    const model = write("cheats", "permit_exact_allowance", [
      [
        { name: "anvil_impersonateAccount", arguments: { address: rich } },
        { name: "eth_sendTransaction", arguments: { from: rich, to: world.agent.address, value: "0x1" } },
        { name: "send_transaction", arguments: { from: rich, to: world.agent.address, value: "1" } },
        { name: "eth_call", arguments: { to: world.contracts.usdt, data: "0x18160ddd", stateOverride: {} } },
        {
          name: "sign_typed_data",
          arguments: {
            domain: { name: "X", version: "1", chainId: 1, verifyingContract: world.contracts.usdt },
            types: { Mail: [{ name: "to", type: "address" }] },
            primaryType: "Mail",
            message: { to: STRANGER },
          },
        },
        { name: "finish", arguments: {} },
      ],
    ]);
    const result = await attempt("permit_exact_allowance", model, 1, 0, TOOLS);
    const calls = result.tools!.calls;
    expect(calls.map((c) => [c.name, c.ok])).toEqual([
      ["anvil_impersonateAccount", false],
      ["eth_sendTransaction", false],
      ["send_transaction", false],
      ["eth_call", false],
      ["sign_typed_data", false],
      ["finish", true],
    ]);
    expect(calls[2]!.result).toMatch(/must NOT have additional properties \(from\)/);
    expect(calls[3]!.result).toMatch(/must NOT have additional properties \(stateOverride\)/);
    expect(calls[4]!.result).toMatch(/not signed/);
    expect(result.tools).toMatchObject({ sent: 0, signed: 0 });
    expect(result.execution?.ledger ?? []).toEqual([]);
  });
});

describe("reports", () => {
  test("one model under both protocols is two rows side by side, and the tasks only one protocol solves are named", async () => {
    const code = fixtureResults("m", [
      fixtureInstance("m", "erc20_approve", 0, 100),
      fixtureInstance("m", "bnb_transfer_basic", 0, 0),
    ]);
    const tools = fixtureResults(
      "m",
      [fixtureInstance("m", "erc20_approve", 0, 30), fixtureInstance("m", "bnb_transfer_basic", 0, 100)],
      { modes: { protocol: "tools" } },
    );
    const out = mkdtempSync(path.join(tmpdir(), "qb-tools-report-"));
    const { rows } = await writeReport({ inputs: [writeRun(code), writeRun(tools)], out });
    expect(rows.map((r) => r.model).sort()).toEqual(["m", "m (tools)"]);
    const md = readFileSync(path.join(out, "leaderboard.md"), "utf8");
    expect(rowsOf(md, "Protocols side by side")).toEqual([
      "| m | 2 | 1 | 1 | erc20_approve | bnb_transfer_basic |",
    ]);
  });
});
