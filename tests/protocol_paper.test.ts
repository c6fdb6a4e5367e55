import { describe, expect, test } from "vitest";
import { referenceModel } from "../src/models/reference.ts";
import type { ModelClient, ModelRequest } from "../src/models/types.ts";
import { parsePaperRound, parsePlan } from "../src/protocol/paperControl.ts";
import { describeModes } from "../src/results/merge.ts";
import { runFolderSettings } from "../src/run/outFolder.ts";
import { resumeKey } from "../src/run/resume.ts";
import { DEFAULT_OPTIONS, optionsFromEnvironment, parseRunFlags } from "../src/runOptions.ts";
import { useAttempts } from "./helpers/attempts.ts";

// `--protocol paper` (README "Comparing with the paper", protocol rows): the paper implementation's
// composite protocol on real Anvil, the real sandbox and the real checks. Inline models answer the
// paper protocol's requests; `reference` answers with the gold conversations.
const attempt = useAttempts(2);
const PAPER = { protocol: "paper" } as const;
const WRAP = "composite_wrap_unwrap_cycle"; // K_opt 2, budget 4
const QUERY = "composite_query_erc20_transfer_verify"; // K_opt 2, budget 4; answers checked

/** A model scripted per request: `reply(request, calls)` returns the text; every request is kept. */
function inline(
  reply: (r: ModelRequest) => string | Promise<string>,
): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: "inline",
    requests,
    async generate(r) {
      requests.push(r);
      return { text: await reply(r) };
    },
  };
}

const gold = referenceModel();
const goldText = async (r: ModelRequest) => (await gold.generate(r)).text;
const plan = (n: number) =>
  `\`\`\`json\n${JSON.stringify({
    plan: {
      total_steps: n,
      subtasks: Array.from({ length: n }, (_, i) => ({
        step: i + 1,
        description: `step ${i + 1}`,
        action_type: `act${i + 1}`,
        contract: "wbnb",
        details: "",
      })),
    },
  })}\n\`\`\``;
const userText = (r: ModelRequest) => r.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";

describe("--protocol paper: flags", () => {
  test("paper is recorded in the modes, ours (the default) is not", () => {
    expect(parseRunFlags(["--protocol", "paper"]).modes).toEqual({ protocol: "paper" });
    expect(parseRunFlags(["--protocol", "ours"]).modes).toBeUndefined();
    // Plain Vitest: the variable, or the flag after `--`.
    expect(optionsFromEnvironment([], { QUESTBENCH_PROTOCOL: "paper" }).modes).toEqual({ protocol: "paper" });
    expect(optionsFromEnvironment(["vitest", "--", "--protocol=paper"], {}).modes).toEqual({
      protocol: "paper",
    });
    expect(() => parseRunFlags(["--protocol", "papr"])).toThrow(
      /--protocol must be paper, ours or tools, got 'papr'; did you mean 'paper'\?/,
    );
    expect(parseRunFlags(["--protocol", "tools"]).modes).toEqual({ protocol: "tools" });
  });

  test("a result of the other protocol is not resumed, its folder is another set, the report labels it", () => {
    const key = (modes?: object) =>
      resumeKey({
        model: "m",
        seed: 1,
        epoch: 0,
        taskId: "t",
        taskSha256: "s",
        sampling: null,
        codeSha256: "c",
        modes,
      });
    expect(key(parseRunFlags(["--protocol", "paper"]).modes)).not.toBe(key(parseRunFlags([]).modes));
    const paper = parseRunFlags(["--protocol", "paper"]);
    expect(runFolderSettings(paper).modes).not.toBe(runFolderSettings(DEFAULT_OPTIONS).modes);
    expect(describeModes(paper.modes)).toBe("protocol=paper");
  });
});

describe("--protocol paper: reading replies", () => {
  test("a plan is read as JSON, as numbered lines, or falls back to the whole task", () => {
    expect(parsePlan(plan(2), "task").subtasks.map((s) => s.action_type)).toEqual(["act1", "act2"]);
    expect(parsePlan("1. approve\n2) swap", "task")).toMatchObject({
      parse: "list",
      subtasks: [{ description: "approve" }, { description: "swap" }],
    });
    expect(parsePlan("```json\n{not json\n```", "the task")).toEqual({
      parse: "fallback",
      subtasks: [{ step: 1, description: "the task", action_type: "execute", contract: "", details: "" }],
    });
  });

  test("control JSON: query, error (both shapes), submit; bad JSON is invalid, not thrown", () => {
    expect(
      parsePaperRound('{"action":"query","query_type":"token_balance","token_address":"0x1","submit":false}'),
    ).toEqual({ control: { kind: "query", queryType: "token_balance", token: "0x1", account: undefined } });
    expect(
      parsePaperRound('```json\n{"error_detected":true,"error_type":"NO_APPROVAL","error_message":"m"}\n```'),
    ).toEqual({ control: { kind: "error", type: "NO_APPROVAL", message: "m" } });
    expect(parsePaperRound('{"error":{"type":"refused","message":"no"}}').control).toMatchObject({
      kind: "error",
    });
    expect(parsePaperRound('{"action":"submit"}').control).toEqual({ kind: "submit", answer: {} });
    expect(parsePaperRound('```json\n{"submit": true,\n```').invalid?.reason).toBe("invalid_control_json");
    expect(parsePaperRound('{"submit": false}').invalid?.reason).toBe("invalid_control_json");
    expect(parsePaperRound("no code, no json").invalid?.reason).toBe("no_code_block");
  });
});

describe.concurrent("--protocol paper: attempts", () => {
  for (const taskId of [WRAP, QUERY, "composite_approve_swap_tokens"])
    test(`the reference scores 100 on ${taskId} in K_opt rounds, one subtask per round`, async () => {
      const r = await attempt(taskId, "reference", 3, 0, PAPER);
      expect(r.failure, JSON.stringify(r.checks.filter((c) => !c.passed))).toBeNull();
      expect(r.score).toBe(100);
      const c = r.composite!;
      expect(c).toMatchObject({
        protocol: "paper",
        planParse: "json",
        endedBy: "submit",
        base: 100,
        decay: 1,
      });
      expect(c.kAct).toBe(c.kOpt);
      expect(c.subtasks).toHaveLength(c.kOpt);
      expect(c.rounds.map((x) => [x.subtask, x.try])).toEqual(c.rounds.map((_, i) => [i + 1, 1]));
    });

  test("a hard-split composite keeps our protocol under the flag, and its gold still scores 100", async () => {
    const r = await attempt("composite_permit2_first_use", "reference", 3, 0, PAPER);
    expect(r.failure, JSON.stringify(r.checks.filter((c) => !c.passed))).toBeNull();
    expect(r.score).toBe(100);
    expect(r.composite!.protocol).toBeUndefined();
    expect(r.composite!.subtasks).toBeUndefined();
  });

  test("a subtask that fails 3 times is skipped and the attempt goes on", async () => {
    // Subtask 1 gets three malformed or failing replies; subtask 2 then gets the gold unwrap.
    const bad = [
      '```json\n{"submit": true,\n```', // unparseable control JSON
      '```json\n{"submit": true}\n```', // a submit without code
      "```ts\nexport async function executeSkill() { throw new Error('boom'); }\n```", // runtime error
    ];
    const model = inline((r) =>
      r.step === "plan"
        ? plan(2)
        : r.subtask === 1
          ? bad[(r.round ?? 1) - 1]!
          : goldText({ ...r, subtask: 2 }),
    );
    const r = await attempt(WRAP, model, 3, 0, PAPER);
    const c = r.composite!;
    expect(c.rounds.map((x) => [x.subtask, x.try, x.kind])).toEqual([
      [1, 1, "failed"],
      [1, 2, "failed"],
      [1, 3, "failed"],
      [2, 1, "transaction"],
    ]);
    expect(c.rounds.map((x) => x.failure?.class)).toEqual([
      "schema_invalid",
      "schema_invalid",
      "runtime_error",
      undefined,
    ]);
    expect(c.rounds[0]!.failure?.code).toBe("invalid_control_json");
    expect(c.rounds[2]!.feedback).toMatch(/subtask 1 skipped after 3 tries/);
    // What the model saw: the retry warning, then subtask 2 as the final one with the history.
    const rounds = model.requests.filter((x) => x.step === "round");
    expect(rounds.every((x) => x.protocol === "paper" && x.messages.length === 2)).toBe(true);
    expect(userText(rounds[1]!)).toMatch(/failed 1 time\(s\); try 2 of 3/);
    expect(userText(rounds[3]!)).toMatch(/Round 3 – Subtask \[act1\]: FAILED — runtime_error/);
    expect(userText(rounds[3]!)).toMatch(/CURRENT SUBTASK 2\/2[\s\S]*FINAL subtask/);
    // The final subtask's success is the submission; the checks decide (nothing was wrapped).
    expect(c).toMatchObject({ kAct: 4, endedBy: "submit", base: 0 });
    expect(r.checks.find((x) => x.name === "wrapped")?.passed).toBe(false);
    expect(r.score).toBe(0);
  });

  test("a query control JSON is answered by the platform and its result shown in the next round", async () => {
    const model = inline((r) => {
      if (r.step === "plan") return plan(2);
      if (r.subtask === 1)
        return `{"action": "query", "query_type": "token_balance", "token_address": "${r.world.contracts.usdt}", "submit": false}`;
      // The balance comes from the history line, as a model would read it.
      const before = /\((\d+) base units of/.exec(userText(r))?.[1] ?? "none";
      const x = BigInt(String(r.instance.params.bal_wei)) - BigInt(String(r.instance.params.after_wei));
      return goldText(r).then((t) =>
        t.replace(
          /\{[^{}]*"submit"[\s\S]*\}\s*(```)?\s*$/,
          `{"submit": true, "answer": {"usdt_balance_before_wei": "${before}", "usdt_balance_after_wei": "${BigInt(before) - x}"}}\n$1`,
        ),
      );
    });
    const r = await attempt(QUERY, model, 3, 0, PAPER);
    const c = r.composite!;
    expect(c.rounds[0]).toMatchObject({ kind: "answer", control: "query", counted: true });
    expect((c.rounds[0]!.answer as { balance: string }).balance).toBe(
      String(model.requests[0]!.instance.params.bal_wei),
    );
    expect(r.failure, JSON.stringify(r.checks.filter((x) => !x.passed))).toBeNull();
    expect(r).toMatchObject({ score: 100, composite: { kAct: 2, kQuery: 1, endedBy: "submit" } });
  });

  test("an error report is a failed try; the third on one subtask ends the attempt with base 0", async () => {
    const model = inline((r) =>
      r.step === "plan"
        ? plan(2)
        : '```json\n{"error_detected": true, "error_type": "TOKEN_INSUFFICIENT_BALANCE", "error_message": "not enough", "submit": true}\n```',
    );
    const r = await attempt(WRAP, model, 3, 0, PAPER);
    expect(r.composite!.rounds.map((x) => [x.kind, x.control, x.try])).toEqual([
      ["error_report", "error", 1],
      ["error_report", "error", 2],
      ["error_report", "error", 3],
    ]);
    expect(r).toMatchObject({
      score: 0,
      failure: { code: "error_report" },
      refusal: { reason: "TOKEN_INSUFFICIENT_BALANCE: not enough" },
      composite: { kAct: 3, kFailed: 3, endedBy: "error_report", base: 0 },
    });
  });

  test("an unreadable plan falls back to one subtask, the whole task, which the final round submits", async () => {
    const model = inline(async (r) =>
      r.step === "plan"
        ? "```json\n{oops\n```"
        : (await goldText({ ...r, subtask: 1 })) + '\n```json\n{"submit": true}\n```',
    );
    const r = await attempt(WRAP, model, 3, 0, PAPER);
    expect(r.composite).toMatchObject({
      planParse: "fallback",
      kAct: 1,
      endedBy: "submit",
      subtasks: [{ step: 1 }],
    });
    expect(r.composite!.subtasks![0]!.description).toBe(model.requests[0]!.instance.taskText);
    expect(userText(model.requests[1]!)).toMatch(/CURRENT SUBTASK 1\/1/);
    // Only the wrap ran: the checks fail (no unwrap), scored, not thrown.
    expect(r.score).toBe(0);
  });

  test("zero counted rounds: decay 0 under the paper protocol, 1 under ours", async () => {
    const empty = inline((r) =>
      r.step === "plan" ? '```json\n{"plan": {"total_steps": 0, "subtasks": []}}\n```' : '{"submit": true}',
    );
    const paper = await attempt(WRAP, empty, 3, 0, PAPER);
    expect(paper.composite).toMatchObject({ kAct: 0, decay: 0, endedBy: "plan_done", rounds: [] });
    expect(paper.score).toBe(0);
    const ours = await attempt(
      WRAP,
      inline(() => '```json\n{"submit": true}\n```'),
      3,
      0,
    );
    expect(ours.composite).toMatchObject({ kAct: 0, decay: 1, endedBy: "submit" });
    expect(ours.composite?.protocol).toBeUndefined();
  });
});
